import { chmodSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import path from 'node:path';

/**
 * The test runs' scratch files in memory. The tests make thousands of small
 * files in the system's temporary folder: a copy of the embedded database's
 * template (998 files, 39 MB) for every database a test or a server it
 * starts opens, PGlite's writes, data folders, config files, Chromium's
 * profiles. On the CI machine kind's ext4 disk, copying the template costs
 * 0.55-0.7 s of the kernel's CPU; on tmpfs 0.05 s. So a run that finds
 * /dev/shm to be a tmpfs with room to spare points TMPDIR (which
 * `os.tmpdir()` reads at each call) at a folder of its own there, inherited
 * by the test workers and every process they start, and removes it at the
 * end. Elsewhere (a container's 64 MB /dev/shm, another kernel) nothing
 * changes. docs/decisions/testing.md#the-tests-scratch-files-live-in-memory.
 */
export const MEMORY_TMPDIR_ENV = 'PORTICO_TEST_MEMORY_TMPDIR';

/** statfs's f_type of a tmpfs (linux/magic.h). */
export const TMPFS_MAGIC = 0x01021994;

export interface MemoryTmpdirOptions {
  /** Where the folder is made: /dev/shm. */
  under?: string;
  /** Free room it must have: 2 GiB, ten times a whole run's peak there (197 MB, docs/performance-test-suite.md). */
  roomNeededBytes?: number;
}

/**
 * Points TMPDIR at a new folder in /dev/shm when it is a tmpfs with room;
 * returns what removes it and puts TMPDIR back. Once per run: in a process
 * that inherited the folder (a worker) or after a first call, it does nothing.
 */
export function useMemoryTmpdir({ under = '/dev/shm', roomNeededBytes = 2 * 1024 ** 3 }: MemoryTmpdirOptions = {}): () => void {
  if (process.env[MEMORY_TMPDIR_ENV] || !hasRoom(under, roomNeededBytes)) return () => undefined;
  const folder = mkdtempSync(path.join(under, 'portico-tests-'));
  // As /tmp is: a section worker running as a user of its own reaches the file staged for it.
  chmodSync(folder, 0o1777);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  process.env[MEMORY_TMPDIR_ENV] = folder;
  const remove = () => {
    rmSync(folder, { recursive: true, force: true });
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    delete process.env[MEMORY_TMPDIR_ENV];
  };
  // A run stopped before its teardown leaves no memory behind either.
  process.once('exit', remove);
  return remove;
}

function hasRoom(folder: string, roomNeededBytes: number): boolean {
  try {
    const stats = statfsSync(folder);
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= roomNeededBytes;
  } catch {
    return false;
  }
}
