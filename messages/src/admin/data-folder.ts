import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
export const TAKEOVER_FILE = 'server.lock.takeover';

/** Written by a running server: how the `messages` command reaches it. */
export const ADMIN_FILE = 'admin.json';

export interface AdminFile {
  pid: number;
  port: number;
  /** Absent when the token is PORTICO_ADMIN_TOKEN, which the command reads from its own environment. */
  token?: string;
}

export class DataFolderBusyError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(`the data folder ${folder} is in use by process ${pid}`);
  }
}

/** The data folder cannot be locked; the message names the file and the fix. */
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
        return heldLock(folder, lock);
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
      if (takeOver(folder, lock, mine, holder)) return heldLock(folder, lock);
    }
    throw new DataFolderError(`${lock} kept changing hands; try again`);
  } finally {
    rmSync(mine, { force: true });
  }
}

function heldLock(folder: string, lock: string): { release(): void } {
  return {
    release() {
      // Only our own: a lock that is not ours any more belongs to its new holder.
      if (pidIn(lock) !== process.pid) return;
      rmSync(path.join(folder, ADMIN_FILE), { force: true });
      rmSync(lock, { force: true });
    },
  };
}

export function writeAdminFile(folder: string, admin: AdminFile): void {
  // Made afresh, so the mode applies even over a file a killed server left.
  rmSync(path.join(folder, ADMIN_FILE), { force: true });
  writeFileSync(path.join(folder, ADMIN_FILE), JSON.stringify(admin), { mode: 0o600 });
}

export function readAdminFile(folder: string): AdminFile | undefined {
  try {
    return JSON.parse(readFileSync(path.join(folder, ADMIN_FILE), 'utf8')) as AdminFile;
  } catch {
    return undefined;
  }
}
