/** @jest-environment node */
import { mkdtempSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigFile } from '../config-file';

const folder = mkdtempSync(path.join(tmpdir(), 'portico-config-file-'));
const UNAVAILABLE = JSON.stringify({ error: 'config.json is unavailable' });
let count = 0;
const newFile = () => path.join(folder, `config-${++count}.json`);
/** Two versions of the same length: an edit that keeps the size. */
const versionA = JSON.stringify({ comName: 'Lender A' });
const versionB = JSON.stringify({ comName: 'Lender B' });

/** Its modification time a minute ago: past any doubt about its stamp. */
function settle(file: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
}

test('an edit that keeps the size, written within the same second, is served on the next request', async () => {
  const file = newFile();
  writeFileSync(file, versionA);
  const config = new ConfigFile({ configPath: file, basePort: 8080 });
  expect((await config.answer(undefined)).body).toBe(versionA);
  for (const [version, text] of [
    ['B', versionB],
    ['A', versionA],
    ['B', versionB],
  ]) {
    writeFileSync(file, text!);
    expect([version, (await config.answer(undefined)).body]).toEqual([version, text]);
  }
});

test('an edit that keeps the size and the modification time (a copy with its times kept) is served on the next request', async () => {
  const file = newFile();
  writeFileSync(file, versionA);
  settle(file);
  const config = new ConfigFile({ configPath: file, basePort: 8080 });
  expect((await config.answer(undefined)).body).toBe(versionA);
  const { mtime, atime } = await fsPromises.stat(file);
  writeFileSync(file, versionB);
  utimesSync(file, atime, mtime);
  expect((await config.answer(undefined)).body).toBe(versionB);
});

test('a file renamed over it (an atomic deploy) is served on the next request', async () => {
  const file = newFile();
  writeFileSync(file, versionA);
  settle(file);
  const config = new ConfigFile({ configPath: file, basePort: 8080 });
  expect((await config.answer(undefined)).body).toBe(versionA);
  const next = `${file}.new`;
  writeFileSync(next, versionB);
  settle(next);
  renameSync(next, file);
  expect((await config.answer(undefined)).body).toBe(versionB);
});

test('an unchanged file is not read again: a request costs a stat, and gets the same answer', async () => {
  const file = newFile();
  writeFileSync(file, versionA);
  settle(file);
  const config = new ConfigFile({ configPath: file, basePort: 8080 });
  const first = await config.answer(undefined);
  const opens = jest.spyOn(fsPromises, 'open');
  try {
    for (let request = 0; request < 5; request++) expect(await config.answer(undefined)).toBe(first);
    expect(opens.mock.calls.filter(([opened]) => opened === file)).toEqual([]);
  } finally {
    opens.mockRestore();
  }
});

test('a file being written (truncated, then completed in parts) answers the old version, the error or the new one, never a mix; the new one once it is complete', async () => {
  const file = newFile();
  // Large enough that a read and a write can overlap on the thread pool.
  const version = (name: string) => JSON.stringify({ comName: name, notes: Array.from({ length: 2000 }, (_, index) => `${name} ${index}`) });
  const versions = [version('first'), version('second')];
  writeFileSync(file, versions[0]!);
  const config = new ConfigFile({ configPath: file, basePort: 8080 });
  const seen = new Set<string>();
  for (let round = 1; round <= 20; round++) {
    const text = versions[round % 2]!;
    let written = false;
    const writing = (async () => {
      const handle = await open(file, 'w');
      const half = Math.floor(text.length / 2);
      await handle.write(text.slice(0, half));
      await handle.write(text.slice(half));
      await handle.close();
      written = true;
    })();
    while (!written) {
      const { body } = await config.answer(undefined);
      expect([UNAVAILABLE, ...versions]).toContain(body);
      seen.add(body);
    }
    await writing;
    expect((await config.answer(undefined)).body).toBe(text);
  }
  expect(seen.size).toBeGreaterThan(1);
});
