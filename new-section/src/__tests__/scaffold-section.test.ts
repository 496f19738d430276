/** @jest-environment node */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROCESS_START_MS } from '@portico/testing/processes';
import { ScaffoldError, scaffoldSection } from '../scaffold-section';

const REPO_ROOT = path.resolve(__dirname, '../../..');

// A root like the repository's (its package.json and tsconfig.json), in a
// folder of its own: the scaffold writes there, never in the repository.
let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'portico-section-new-'));
  for (const file of ['package.json', 'tsconfig.json']) await copyFile(path.join(REPO_ROOT, file), path.join(root, file));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (file: string) => readFile(path.join(root, file), 'utf8');
const noLink = jest.fn(async () => {});

test('a hyphenated id becomes remote-<id>/, a workspace like the built-in remotes, registered and linked', async () => {
  const made = await scaffoldSection({ root, id: 'repay-calc', interactive: false, link: noLink });
  expect(made).toEqual({ folder: 'remote-repay-calc', packageName: '@portico/remote-repay-calc', remoteName: 'portico_repay_calc' });
  expect(noLink).toHaveBeenCalledWith(root);

  const pkg = JSON.parse(await read('remote-repay-calc/package.json'));
  const builtIn = JSON.parse(await readFile(path.join(REPO_ROOT, 'remote-home/package.json'), 'utf8'));
  expect(pkg).toEqual({ ...builtIn, name: '@portico/remote-repay-calc' });

  const workspaces: string[] = JSON.parse(await read('package.json')).workspaces;
  expect(workspaces.filter((one) => one.includes('remote-'))).toEqual([
    'remote-home',
    'remote-about',
    'remote-contact',
    'examples/remote-calculator',
    'remote-repay-calc',
  ]);
  const tsconfig = await read('tsconfig.json');
  expect(tsconfig).toContain('{ "path": "./examples/remote-calculator" },\n    { "path": "./remote-repay-calc" },\n');
  expect(JSON.parse(tsconfig).references).toContainEqual({ path: './remote-repay-calc' });
});

test('without --interactive it is static: no script in the browser, and no interactive variant left behind', async () => {
  await scaffoldSection({ root, id: 'faq', interactive: false, link: noLink });
  expect(await read('remote-faq/webpack.config.ts')).toContain(
    "createConfig({ app: 'faq', dir: __dirname, exposes: 'src/exposes/section.ts', hydration: { mode: 'static' } })",
  );
  expect(await read('remote-faq/src/i18n/en.ts')).toContain("heading: 'Faq'");
  expect(await read('remote-faq/README.md')).toContain('npm run build -w @portico/remote-faq ');
  expect(await read('remote-faq/src/components/section-view.tsx')).not.toContain('useState');
  expect(existsSync(path.join(root, 'remote-faq/src/components/section-view.interactive.tsx'))).toBe(false);
  expect(existsSync(path.join(root, 'remote-faq/webpack.config.interactive.ts'))).toBe(false);
  expect(existsSync(path.join(root, 'remote-faq/src/components/__tests__/section-view-hydration.test.tsx'))).toBe(false);
  const everything = await Promise.all(['src/bootstrap.tsx', 'src/i18n/id.ts', 'src/components/section-view.css'].map((file) => read(`remote-faq/${file}`)));
  expect(everything.join('\n')).not.toMatch(/__SECTION_(ID|TITLE)__/);
});

test('with --interactive it is an island that hydrates when used, its test testing the interactive view', async () => {
  await scaffoldSection({ root, id: 'rate-notice', interactive: true, link: noLink });
  expect(await read('remote-rate-notice/webpack.config.ts')).toContain("hydration: { mode: 'interactive', when: ['interaction'] }");
  expect(await read('remote-rate-notice/src/components/section-view.tsx')).toContain('useState');
  const test = await read('remote-rate-notice/src/components/__tests__/section-view.test.tsx');
  expect(test).toContain("from '../section-view';");
  expect(test).toContain("name: 'Rate notice'");
  expect(existsSync(path.join(root, 'remote-rate-notice/src/components/__tests__/section-view.interactive.test.tsx'))).toBe(false);
  // A test only the island has: what is typed before hydration counts.
  expect(await read('remote-rate-notice/src/components/__tests__/section-view-hydration.test.tsx')).toContain("from '../section-view';");
});

test.each([
  ['Repay_Calc', /must be 2 to 24 lowercase ASCII letters/],
  ['api', /"api" is a reserved word/],
  ['tab-faq', /starts with "tab-"/],
  ['contact', /"contact" is a built-in section/],
  ['calculator', /the workspace examples\/remote-calculator is already @portico\/remote-calculator/],
])('"%s" is refused with its reason, and nothing is written', async (id, reason) => {
  const before = await read('package.json');
  await expect(scaffoldSection({ root, id, interactive: false, link: noLink })).rejects.toThrow(reason);
  expect(await read('package.json')).toBe(before);
  expect(noLink).not.toHaveBeenCalled();
});

test('a folder already there is refused, untouched', async () => {
  await mkdir(path.join(root, 'remote-faq'));
  await expect(scaffoldSection({ root, id: 'faq', interactive: false, link: noLink })).rejects.toThrow(new ScaffoldError('remote-faq/ already exists'));
});

test('a link that fails leaves nothing half-made: the folder gone, the root files as they were', async () => {
  const before = await Promise.all(['package.json', 'tsconfig.json'].map(read));
  const failing = async () => {
    throw new Error('npm ERR! offline');
  };
  await expect(scaffoldSection({ root, id: 'faq', interactive: false, link: failing })).rejects.toThrow('npm ERR! offline');
  expect(existsSync(path.join(root, 'remote-faq'))).toBe(false);
  expect(await Promise.all(['package.json', 'tsconfig.json'].map(read))).toEqual(before);
});

test('npm’s hidden lockfile, hard-linked to another tree’s, is made a file of its own before npm rewrites it in place', async () => {
  const { link, stat, writeFile } = await import('node:fs/promises');
  const { unshareHiddenLockfile } = await import('../workspace-registry');
  const other = path.join(root, 'other-lockfile.json');
  await writeFile(other, '{"other": true}');
  await mkdir(path.join(root, 'node_modules'));
  const hidden = path.join(root, 'node_modules/.package-lock.json');
  await link(other, hidden);

  await unshareHiddenLockfile(root);
  await writeFile(hidden, '{"rewritten": true}');
  expect(await readFile(other, 'utf8')).toBe('{"other": true}');
  expect((await stat(hidden)).nlink).toBe(1);
  // A tree of its own is left as it is.
  await unshareHiddenLockfile(root);
  expect(await readFile(hidden, 'utf8')).toBe('{"rewritten": true}');
});

test('`npm run section:new -- <id> --no-link` registers the workspace and runs no install: for a root whose node_modules is not its own', async () => {
  const run = promisify(execFile);
  const cli = path.join(__dirname, '../new-section-cli.ts');
  const { stdout } = await run(process.execPath, [require.resolve('tsx/cli'), cli, 'faq', '--interactive', '--no-link'], {
    cwd: root,
    timeout: PROCESS_START_MS,
  });
  expect(stdout).toContain(
    'Created remote-faq/ (@portico/remote-faq, remote portico_faq, an island that hydrates when used), registered (not linked: run npm install --offline).',
  );
  expect(JSON.parse(await read('package.json')).workspaces).toContain('remote-faq');
  expect(await read('remote-faq/webpack.config.ts')).toContain("hydration: { mode: 'interactive', when: ['interaction'] }");
  // npm's install would have made both.
  expect(existsSync(path.join(root, 'node_modules'))).toBe(false);
  expect(existsSync(path.join(root, 'package-lock.json'))).toBe(false);
});
