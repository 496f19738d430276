import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataFolderBusyError, DataFolderError, LOCK_FILE, lockDataFolder } from '../data-folder';
import { PROCESS_START_MS } from '@portico/testing/processes';

const scratch = mkdtempSync(path.join(tmpdir(), 'portico-data-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
const newFolder = () => path.join(scratch, `folder-${++folders}`);

/** A process that has come and gone: its pid names nobody (for the few seconds of a test). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('one process per data folder', () => {
  it('never takes over a lock that names no process yet (its maker is between creating and writing it)', () => {
    const folder = newFolder();
    mkdirSync(folder);
    writeFileSync(path.join(folder, LOCK_FILE), '');
    expect(() => lockDataFolder(folder)).toThrow(DataFolderError);
    expect(() => lockDataFolder(folder)).toThrow(`${path.join(folder, LOCK_FILE)} names no process`);
  });

  it('refuses a folder a live process holds, and takes over one whose process is gone', async () => {
    const folder = newFolder();
    mkdirSync(folder);
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(path.join(folder, LOCK_FILE), String(live.pid));
      expect(() => lockDataFolder(folder)).toThrow(DataFolderBusyError);
    } finally {
      live.kill();
      await new Promise((resolve) => live.once('exit', resolve));
    }
    const lock = lockDataFolder(folder);
    expect(readFileSync(path.join(folder, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(readdirSync(folder)).toEqual([]);
  });

  describe('two processes racing for one folder: exactly one gets it', () => {
    const ROUNDS = 60;
    const contenders: ChildProcess[] = [];
    const next = (child: ChildProcess, type: string) =>
      new Promise<{ type: string; got?: boolean; error?: string }>((resolve) => {
        const listener = (message: { type: string }) => {
          if (message.type !== type) return;
          child.off('message', listener);
          resolve(message);
        };
        child.on('message', listener);
      });

    beforeAll(async () => {
      for (let index = 0; index < 2; index++) {
        const child = fork(path.join(__dirname, '../testing/lock-race-child.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
        contenders.push(child);
        await next(child, 'ready');
      }
    }, 2 * PROCESS_START_MS);
    afterAll(() => {
      for (const child of contenders) child.disconnect();
    });

    async function race(prepare: (folder: string) => void): Promise<string[]> {
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const folder = newFolder();
        mkdirSync(folder);
        prepare(folder);
        const at = Date.now() + 40;
        const results = contenders.map((child) => next(child, 'result'));
        for (const child of contenders) child.send({ type: 'race', folder, at });
        const got = (await Promise.all(results)).filter((result) => result.got).length;
        outcomes.push(`${got} of 2`);
        const released = contenders.map((child) => next(child, 'released'));
        for (const child of contenders) child.send({ type: 'release' });
        await Promise.all(released);
      }
      return outcomes;
    }

    it(`on a new folder (${ROUNDS} rounds)`, async () => {
      expect(new Set(await race(() => undefined))).toEqual(new Set(['1 of 2']));
    }, 60_000);

    it(`on a folder whose lock was left by a process that is gone (${ROUNDS} rounds)`, async () => {
      const stale = deadPid();
      expect(new Set(await race((folder) => writeFileSync(path.join(folder, LOCK_FILE), String(stale))))).toEqual(new Set(['1 of 2']));
    }, 60_000);
  });
});
