import fs, { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '@portico/testing/eventually';
import { fileStamp, watchedStamp } from '../file-stamp';

// watchedStamp skips the stat while the file's folders are quiet. Each test
// passes one fixed `now`, so the once-a-second stat never comes: a new stamp
// can only have come from the watch telling of the change.

const NOW = 1_000_000;
let folder: string;
let stats: jest.SpyInstance;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-file-stamp-'));
  stats = jest.spyOn(fs, 'statSync');
});
afterEach(() => {
  stats.mockRestore();
  rmSync(folder, { recursive: true, force: true });
});

test('a quiet file is not stat’ed again; an edit is told by its folder’s watch, and the next call has its new stamp', async () => {
  const file = path.join(folder, 'config.json');
  writeFileSync(file, '{"a":1}');
  const first = watchedStamp(file, NOW);
  expect(first).toBe(fileStamp(file));
  stats.mockClear();
  for (let call = 0; call < 50; call++) expect(watchedStamp(file, NOW)).toBe(first);
  expect(stats).not.toHaveBeenCalled();

  writeFileSync(file, '{"a":22}');
  await eventually(() => expect(watchedStamp(file, NOW)).not.toBe(first), { what: 'the edit told', withinMs: 5000 });
  expect(watchedStamp(file, NOW)).toBe(fileStamp(file));
});

test('a file renamed over it, and a link switched to another folder, are told too', async () => {
  const file = path.join(folder, 'config.json');
  writeFileSync(file, '{"a":1}');
  const first = watchedStamp(file, NOW);
  writeFileSync(path.join(folder, 'next.json'), '{"a":1}');
  renameSync(path.join(folder, 'next.json'), file);
  await eventually(() => expect(watchedStamp(file, NOW)).not.toBe(first), { what: 'the rename told', withinMs: 5000 });

  // A ConfigMap's layout: the file a link into a folder the deploy switches.
  for (const release of ['one', 'two']) {
    mkdirSync(path.join(folder, release));
    writeFileSync(path.join(folder, release, 'config.json'), `{"release":"${release}"}`);
  }
  symlinkSync('one', path.join(folder, 'data'));
  const linked = path.join(folder, 'data', 'config.json');
  const before = watchedStamp(linked, NOW);
  symlinkSync('two', path.join(folder, 'data-next'));
  renameSync(path.join(folder, 'data-next'), path.join(folder, 'data'));
  await eventually(() => expect(watchedStamp(linked, NOW)).not.toBe(before), { what: 'the switch told', withinMs: 5000 });
  // Then an edit in the folder the link now leads to.
  const switched = watchedStamp(linked, NOW);
  writeFileSync(path.join(folder, 'two', 'config.json'), '{"release":"two, edited"}');
  await eventually(() => expect(watchedStamp(linked, NOW)).not.toBe(switched), { what: 'the edit behind the link told', withinMs: 5000 });
});

test('a file in a folder that cannot be watched is stat’ed at every call', () => {
  const file = path.join(folder, 'missing-folder', 'config.json');
  expect(watchedStamp(file, NOW)).toBe('missing');
  stats.mockClear();
  watchedStamp(file, NOW);
  watchedStamp(file, NOW);
  expect(stats).toHaveBeenCalledTimes(2);
});

test('without any change told, the stamp is taken again once WATCHED_RESTAT_MS has passed (a file system that tells nothing)', () => {
  const file = path.join(folder, 'config.json');
  writeFileSync(file, '{}');
  watchedStamp(file, NOW);
  stats.mockClear();
  watchedStamp(file, NOW + 999);
  expect(stats).not.toHaveBeenCalled();
  watchedStamp(file, NOW + 1000);
  expect(stats).toHaveBeenCalledTimes(1);
});
