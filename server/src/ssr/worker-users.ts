import { readdirSync, readFileSync } from 'node:fs';
import { basePort } from '@portico/contract/sections';

/** A user (and its group, of the same number) a worker runs as. */
export interface WorkerUser {
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
/** The fewest a range may hold: a live worker per section, one starting and one retiring, previews, canaries, publish checks. */
const MIN_COUNT = 32;
/** The highest a worker's id may be: below 2^31, which some tools read as signed. */
const MAX_ID = 2_147_483_646;

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
    return taken.length === 0 ? undefined : `PORTICO_SSR_UIDS (${this.first}-${this.last}) holds ${taken.slice(0, 3).join(', ')}, named in /etc/passwd or /etc/group: a worker would have that user's or group's files`;
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
 * PORTICO_SSR_UIDS (`first-last`), or the port's own block by default:
 * DEFAULT_COUNT users from DEFAULT_FIRST + DEFAULT_COUNT x PORT, so two
 * servers on one machine (on different ports) never share one. Throws,
 * naming the setting, on a bad value, and on the old single-user settings.
 */
export function workerUsers(env: NodeJS.ProcessEnv = process.env): WorkerUsers {
  for (const old of ['PORTICO_SSR_UID', 'PORTICO_SSR_GID']) {
    if (env[old] !== undefined && env[old] !== '') {
      throw new Error(`${old} is replaced by PORTICO_SSR_UIDS, a range of users (each section worker runs as one of its own): e.g. PORTICO_SSR_UIDS=2000000000-2000000255`);
    }
  }
  const value = env.PORTICO_SSR_UIDS?.trim() ?? '';
  if (value === '') return new WorkerUsers(DEFAULT_FIRST + DEFAULT_COUNT * (basePort(env) % 65_536), DEFAULT_COUNT);
  const match = /^(\d+)-(\d+)$/.exec(value);
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [Number.NaN, Number.NaN];
  if (!match || first < 1000 || last > MAX_ID || last - first + 1 < MIN_COUNT) {
    throw new Error(`PORTICO_SSR_UIDS must be a range of user ids "first-last", at least ${MIN_COUNT} of them, from 1000 to ${MAX_ID}, held by no other server on the machine, got "${value}"`);
  }
  return new WorkerUsers(first, last - first + 1);
}
