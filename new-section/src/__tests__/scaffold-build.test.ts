/** @jest-environment node */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readManifest } from '@portico/contract/manifest';
import { wiredRoot, type WiredRoot } from '@portico/testing/wired-root';
import { scaffoldSection } from '../scaffold-section';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

// A root wired to the repository (@portico/testing/wired-root): the scaffold
// writes only in that folder, its link step skipped (npm's install would
// write through the node_modules symlink), and webpack finds the new
// remote's dependencies through the root's node_modules as it would in the
// repository.
let wired: WiredRoot;
let root: string;
beforeAll(async () => {
  wired = await wiredRoot(REPO_ROOT);
  root = wired.root;
});
afterAll(() => wired?.remove());

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
