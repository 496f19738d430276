import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDirOf, readSetting, type Whereabouts } from './settings';

/**
 * The data folder (the embedded database, the owner token's file):
 * PORTICO_DATA_DIR, a relative one taken from where the command was typed,
 * else `data/` at the repository root.
 */
export function dataFolder(env: NodeJS.ProcessEnv, where: Whereabouts): string {
  return dataDirOf({ PORTICO_DATA_DIR: readSetting(env, 'PORTICO_DATA_DIR') }, where);
}

/** The folder of the embedded database inside the data folder. */
export const EMBEDDED_DATABASE_FOLDER = 'pglite';

/**
 * The embedded database is one process per data folder: PGlite has no
 * server, so two processes writing one folder would corrupt it. The
 * process that opens it holds `server.lock`, which names its pid; another
 * finds the pid alive and stays out.
 */
export const LOCK_FILE = 'server.lock';

/**
 * Exists only while a process replaces a lock whose process is gone, so
 * that two processes finding the same stale lock cannot both take it.
 */
const TAKEOVER_FILE = 'server.lock.takeover';

export class DataFolderBusyError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(`the data folder ${folder} is in use by process ${pid}`);
  }
}

/** The data folder cannot be locked or made private; the message names the file and the fix. */
export class DataFolderError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file names; `missing` when there is no file, undefined when it names none. */
function pidIn(file: string): number | 'missing' | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  const pid = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** The live process holding `folder`, if any (a lock left by a killed process does not count). */
export function folderHolder(folder: string): number | undefined {
  try {
    const pid = pidIn(path.join(folder, LOCK_FILE));
    return typeof pid === 'number' && pid !== process.pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Blocks this thread for `ms`: the lock is taken synchronously, before anything else runs. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException).code === code;

/**
 * Replaces the lock `stale` (whose process is gone) with `mine`, unless
 * another process is doing the same. Only the process that creates
 * TAKEOVER_FILE may replace a lock, and it checks, holding it, that the
 * lock still names the dead process: a process that judged the same lock
 * stale a moment later finds the new owner's pid and backs off.
 */
function takeOver(folder: string, lock: string, mine: string, stale: number): boolean {
  const marker = path.join(folder, TAKEOVER_FILE);
  try {
    // A link, like the lock: the marker never exists without its pid in it.
    linkSync(mine, marker);
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) throw error;
    const taker = pidIn(marker);
    if (taker === 'missing') return false;
    if (typeof taker === 'number' && taker !== process.pid && alive(taker)) {
      // Another process is replacing the stale lock this very moment; look again once it has.
      pause(20);
      return false;
    }
    throw new DataFolderError(
      `${marker} was left by a process that stopped while taking over the lock of ${folder}; if no server uses that folder, delete the file`,
    );
  }
  try {
    if (pidIn(lock) !== stale) return false;
    // rename() replaces the lock in one step: there is never a moment without one.
    renameSync(mine, lock);
    return true;
  } finally {
    rmSync(marker, { force: true });
  }
}

/**
 * Takes `folder` for this process; throws DataFolderBusyError when a live
 * process holds it.
 *
 * The lock file is made complete (the pid written) under a name of its own
 * and then hard-linked to `server.lock`: link() fails when the name exists,
 * so exactly one process gets it and nobody ever reads a lock without its
 * pid. A lock naming a process that is gone is replaced by `takeOver`.
 */
export function lockDataFolder(folder: string): { release(): void } {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const lock = path.join(folder, LOCK_FILE);
  const mine = path.join(folder, `${LOCK_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  writeFileSync(mine, String(process.pid), { flag: 'wx', mode: 0o600 });
  try {
    // A few rounds: each ends because the lock changed hands under us (released, taken over).
    for (let round = 0; round < 50; round++) {
      try {
        linkSync(mine, lock);
        return heldLock(lock);
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) throw error;
      }
      const holder = pidIn(lock);
      if (holder === 'missing') continue;
      if (holder === undefined) {
        throw new DataFolderError(`${lock} names no process; if no server uses ${folder}, delete the file`);
      }
      // Our own pid in a lock we do not hold is a dead process's, given our pid since.
      if (holder !== process.pid && alive(holder)) throw new DataFolderBusyError(folder, holder);
      if (takeOver(folder, lock, mine, holder)) return heldLock(lock);
    }
    throw new DataFolderError(`${lock} kept changing hands; try again`);
  } finally {
    rmSync(mine, { force: true });
  }
}

function heldLock(lock: string): { release(): void } {
  return {
    release() {
      // Only our own: a lock that is not ours any more belongs to its new holder.
      if (pidIn(lock) !== process.pid) return;
      rmSync(lock, { force: true });
    },
  };
}

/** What `privateDataFolder` found and did. */
export interface PrivateFolder {
  /** The folder did not exist and was made, owner-only. */
  created: boolean;
  /** Folders and files other users could read, write or enter, now owner-only. */
  tightened: number;
}

/**
 * Makes `folder` and everything in it private to this user: folders 0700
 * (or less), files 0600 (or less), the owner's own bits kept. A missing
 * folder is created 0700 (its parents are the operator's business).
 * Symbolic links are not followed, inside the folder; the folder itself may
 * be one (a data disk mounted elsewhere). Throws DataFolderError, naming the
 * path and the fix, for anything it cannot tighten.
 */
export function privateDataFolder(folder: string): PrivateFolder {
  const refuse = (entry: string, error: unknown) =>
    new DataFolderError(
      `cannot make ${entry} private to this user (${(error as NodeJS.ErrnoException).code ?? String(error)}): other users could read the stored messages. Run the server as the folder's owner, or run \`chmod -R go= ${folder}\``,
    );
  mkdirSync(path.dirname(folder), { recursive: true });
  let created = true;
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) throw refuse(folder, error);
    created = false;
  }
  let tightened = 0;
  const tighten = (entry: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    try {
      chmodSync(entry, mode & 0o700);
    } catch (error) {
      throw refuse(entry, error);
    }
    tightened++;
  };
  tighten(folder, statSync(folder).mode);
  const pending = [folder];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      throw refuse(dir, error);
    }
    for (const name of names) {
      const entry = path.join(dir, name);
      let stats;
      try {
        stats = lstatSync(entry);
      } catch (error) {
        // Another process's lock attempt comes and goes.
        if (isErrno(error, 'ENOENT')) continue;
        throw refuse(entry, error);
      }
      if (stats.isSymbolicLink()) continue;
      tighten(entry, stats.mode);
      if (stats.isDirectory()) pending.push(entry);
    }
  }
  return { created, tightened };
}
