import { readdirSync, readFileSync } from 'node:fs';

/** A user (and its group, of the same number) a worker runs as. */
interface WorkerUser {
  uid: number;
  gid: number;
}

/** A user handed to one worker, given back once its process has ended. */
export interface ClaimedUser extends WorkerUser {
  release: () => void;
}

/** Where the default ranges start: far above any user a system makes (Debian's go to 59999, systemd's dynamic ones to 65519, container maps to about 10^6). */
const DEFAULT_FIRST = 1_900_000_000;
/** A server's range by default: its port's own block of this many, so servers on different ports never share a user. */
const DEFAULT_COUNT = 256;

/**
 * The real user ids of every process this one can see in /proc: a user
 * that runs a process is not handed out (a worker of another server on
 * the same range, or one that outlived its end).
 */
function runningUids(): Set<number> {
  const uids = new Set<number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return uids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (uid !== undefined) uids.add(Number(uid));
    } catch {
      // Gone meanwhile.
    }
  }
  return uids;
}

/** The ids /etc/passwd and /etc/group name: a range must hold none (a worker would get that user's files). */
function systemIds(): Set<number> {
  const ids = new Set<number>();
  for (const file of ['/etc/passwd', '/etc/group']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const id = Number(line.split(':')[2]);
      if (line.trim() !== '' && Number.isInteger(id)) ids.add(id);
    }
  }
  return ids;
}

/**
 * The users this server's workers run as when it is root: a range of its
 * own (PORTICO_SSR_UIDS), each worker a user no other process runs as, so
 * no worker can signal another section's worker, another server's, or
 * anything else on the machine, nor read what another worker's user could.
 */
export class WorkerUsers {
  private readonly held = new Set<number>();
  private next: number;

  constructor(
    readonly first: number,
    readonly count: number,
  ) {
    this.next = first;
  }

  get last(): number {
    return this.first + this.count - 1;
  }

  /** For the log: `users 1902068480-1902068735`. */
  get description(): string {
    return `users ${this.first}-${this.last}`;
  }

  /** Why this range cannot be used here (it names a user or group of the system), or undefined. */
  problem(): string | undefined {
    const taken = [...systemIds()].filter((id) => id >= this.first && id <= this.last);
    return taken.length === 0
      ? undefined
      : `PORTICO_SSR_UIDS (${this.first}-${this.last}) holds ${taken.slice(0, 3).join(', ')}, named in /etc/passwd or /etc/group: a worker would have that user's or group's files`;
  }

  /**
   * A user for one worker: none this server has handed out and not had
   * back, and none any process runs as now; taken in turn through the
   * range, so an id comes back as late as it can. Throws when there is none.
   */
  claim(): ClaimedUser {
    const running = runningUids();
    for (let tried = 0; tried < this.count; tried += 1) {
      const uid = this.next;
      this.next = uid === this.last ? this.first : uid + 1;
      if (this.held.has(uid) || running.has(uid)) continue;
      this.held.add(uid);
      let released = false;
      return {
        uid,
        gid: uid,
        release: () => {
          if (released) return;
          released = true;
          this.held.delete(uid);
        },
      };
    }
    throw new Error(`no free user for a worker in ${this.description} (PORTICO_SSR_UIDS): each one runs a process now`);
  }
}

/**
 * The range PORTICO_SSR_UIDS names (read and checked with the other
 * settings), or the port's own block by default: DEFAULT_COUNT users from
 * DEFAULT_FIRST + DEFAULT_COUNT x the port, so two servers on one machine
 * (on different ports) never share one.
 */
export function workerUsers(range: { first: number; last: number } | undefined, port: number): WorkerUsers {
  if (range) return new WorkerUsers(range.first, range.last - range.first + 1);
  return new WorkerUsers(DEFAULT_FIRST + DEFAULT_COUNT * (port % 65_536), DEFAULT_COUNT);
}
