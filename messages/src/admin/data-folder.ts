import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database is one process per data folder: PGlite has no
 * server, so two processes writing one folder would corrupt it. The
 * process that opens it writes its pid into `server.lock`; another finds the
 * pid alive and stays out.
 */
export const LOCK_FILE = 'server.lock';

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process holding `folder`, if any (a lock left by a killed process does not count). */
export function folderHolder(folder: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(folder, LOCK_FILE), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes `folder` for this process; throws DataFolderBusyError when a live process holds it. */
export function lockDataFolder(folder: string): { release(): void } {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, LOCK_FILE);
  for (let tries = 0; ; tries++) {
    try {
      closeSync(openSync(file, 'wx'));
      writeFileSync(file, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) throw error;
      const holder = folderHolder(folder);
      if (holder !== undefined) throw new DataFolderBusyError(folder, holder);
      // Left by a process that was killed: take it over.
      rmSync(file, { force: true });
    }
  }
  return {
    release() {
      rmSync(path.join(folder, ADMIN_FILE), { force: true });
      rmSync(file, { force: true });
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
