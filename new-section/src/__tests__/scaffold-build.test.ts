/** @jest-environment node */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readManifest } from '@portico/contract/manifest';
import { scaffoldSection } from '../scaffold-section';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

// A root wired to the repository: its package.json, tsconfig files copied,
// every other entry (the workspaces, node_modules) a symlink to the
// repository's. The scaffold writes only in this folder: its link step is
// skipped (npm's install would write through the node_modules symlink), and
// webpack finds the new remote's dependencies through the root's
// node_modules as it would in the repository.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'portico-section-build-'));
  const copied = new Set(['package.json', 'package-lock.json', 'tsconfig.json']);
  for (const entry of await readdir(REPO_ROOT)) {
    if (entry.startsWith('.') || entry.startsWith('remote-')) continue;
    if (copied.has(entry)) await copyFile(path.join(REPO_ROOT, entry), path.join(root, entry));
    else await symlink(path.join(REPO_ROOT, entry), path.join(root, entry));
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a scaffolded hyphenated section builds with `npm run build -w`, into a manifest named portico_<id> exposing ./section', async () => {
  const made = await scaffoldSection({ root, id: 'repay-calc', interactive: true, link: async () => {} });
  await run('npm', ['run', 'build', '-w', made.packageName], { cwd: root, timeout: 170_000 });

  const dist = path.join(root, 'remote-repay-calc/dist');
  const reading = readManifest(await readFile(path.join(dist, 'mf-manifest.json'), 'utf8'), 'http://localhost:9999/mf-manifest.json');
  if (!('manifest' in reading)) throw new Error(reading.problem);
  const raw = JSON.parse(await readFile(path.join(dist, 'mf-manifest.json'), 'utf8'));
  expect(raw.name).toBe('portico_repay_calc');
  expect(raw.exposes.map((exposed: { path: string }) => exposed.path)).toEqual(['./section']);
  expect(reading.manifest.hydration).toEqual({ mode: 'interactive', when: ['interaction'] });
  // The node build the server renders it with, named in the manifest by its hash.
  expect(await readdir(path.join(dist, 'server'))).toEqual([expect.stringMatching(/^remoteEntry\.[0-9a-f]{10}\.js$/)]);
}, 180_000);
