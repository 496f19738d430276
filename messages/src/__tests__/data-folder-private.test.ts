import { spawnSync } from 'node:child_process';
import fs, { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDED_DATABASE_FOLDER, privateDataFolder } from '@portico/platform/data-folder';
import { openStore } from '../contact-service';
import { contactSettings } from '../settings';

const scratch = mkdtempSync(path.join(tmpdir(), 'portico-data-private-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
const newFolder = () => path.join(scratch, `folder-${++folders}`);

/** Every folder and file under `root` (not following links), with its permission bits. */
function modes(root: string): { entry: string; mode: number; directory: boolean }[] {
  const found = [{ entry: root, mode: statSync(root).mode & 0o777, directory: true }];
  for (let index = 0; index < found.length; index++) {
    if (!found[index]!.directory) continue;
    for (const name of readdirSync(found[index]!.entry)) {
      const entry = path.join(found[index]!.entry, name);
      const stats = lstatSync(entry);
      found.push({ entry, mode: stats.mode & 0o777, directory: stats.isDirectory() });
    }
  }
  return found;
}

const openToOthers = (root: string) => modes(root).filter(({ mode }) => (mode & 0o077) !== 0);

describe('the embedded database keeps its files to its own user', () => {
  const dataDir = newFolder();
  const settings = contactSettings({ PORTICO_DATA_DIR: dataDir }, { rootDir: scratch, invokedFrom: scratch });

  it('creates the data folder 0700 with every file in it 0600, whatever the umask', async () => {
    const before = process.umask(0o000);
    let tightened = -1;
    try {
      const opened = await openStore(settings);
      const { store, release } = opened;
      tightened = opened.tightened;
      await store.submit(
        { name: 'Asha', telephone: '+91 98765 43210', message: 'MARKER-AT-REST', language: 'en', idempotencyKey: 'at-rest-0001' },
        { address: '192.0.2.1' },
      );
      await store.close();
      release();
    } finally {
      process.umask(before);
    }
    const all = modes(dataDir);
    expect(all.length).toBeGreaterThan(500);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(openToOthers(dataDir).map(({ entry, mode }) => `${path.relative(dataDir, entry)} ${mode.toString(8)}`)).toEqual([]);
    // A new folder is no news.
    expect(tightened).toBe(0);
  }, 60_000);

  it('is unreadable to another local user (checked by the kernel, when the test runs as root)', () => {
    if (process.getuid?.() !== 0) return;
    const wal = path.join(dataDir, EMBEDDED_DATABASE_FOLDER, 'pg_wal');
    const segment = readdirSync(wal).find((name) => /^[0-9A-F]{24}$/.test(name))!;
    const asNobody = spawnSync('cat', [path.join(wal, segment)], { uid: 65534, gid: 65534 });
    expect(asNobody.status).not.toBe(0);
    expect(asNobody.stdout.toString()).not.toContain('MARKER-AT-REST');
  });

  it('makes a folder an older version left open private at start, and says so', async () => {
    for (const { entry, directory } of modes(dataDir)) chmodSync(entry, directory ? 0o777 : 0o666);
    const { store, release, tightened } = await openStore(settings);
    await store.close();
    release();
    expect(openToOthers(dataDir)).toEqual([]);
    // The count the service's warning and the messages command's line give.
    expect(tightened).toBeGreaterThan(500);
  }, 60_000);

  it('refuses to start on a folder it cannot make private, naming the folder and the fix', async () => {
    const folder = newFolder();
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    // As if another user owned it: chmod is refused.
    jest.spyOn(fs, 'chmodSync').mockImplementation(() => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    });
    const start = openStore(contactSettings({ PORTICO_DATA_DIR: folder }, { rootDir: scratch, invokedFrom: scratch }));
    await expect(start).rejects.toThrow(`cannot make ${folder} private to this user (EPERM)`);
    await expect(start).rejects.toThrow(`chmod -R go= ${folder}`);
    // Nothing was opened or locked.
    expect(readdirSync(folder)).toEqual([]);
  });

  it('leaves links inside the folder alone, and follows a folder that is itself a link', () => {
    const target = newFolder();
    mkdirSync(target, { mode: 0o755 });
    chmodSync(target, 0o755);
    const outside = path.join(scratch, 'outside.txt');
    writeFileSync(outside, 'not ours to change', { mode: 0o644 });
    chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(target, 'link'));
    const link = newFolder();
    fs.symlinkSync(target, link);
    expect(privateDataFolder(link)).toEqual({ created: false, tightened: 1 });
    expect(statSync(target).mode & 0o777).toBe(0o700);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
  });
});
