import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chooseSandbox, type Sandbox } from '../sandbox';

// Each layer of the sandbox on its own, tried by a script that has already
// got out of its context (it holds `process` and `require`): what the kernel
// refuses it with only bubblewrap around it, or only another user, and what
// Node's permission model refuses it with nothing else. hostile-sections.test.ts
// tries the same things through the whole path, every layer together.

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const REPO_FILE = path.join(REPO_ROOT, 'package.json');

/**
 * Whether the kernel lets a user who is neither the owner nor in the group
 * read `file`: every folder above it searchable by others, the file readable
 * by them. A clone under a private folder (/root, a Debian 12 home, a 0700
 * mktemp folder) is not, and the sandbox is then refused it by that alone.
 */
function readableByOthers(file: string): boolean {
  if ((statSync(file).mode & 0o004) === 0) return false;
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return false;
    if (folder === path.dirname(folder)) return true;
  }
}
const root = process.getuid?.() === 0;
const bubblewrap = existsSync('/usr/bin/bwrap');
/** CI installs bubblewrap and runs as root: there every layer is tested, none skipped. */
const testIfRoot = root || process.env.CI ? test : test.skip;
const testIfBubblewrap = (root && bubblewrap) || process.env.CI ? test : test.skip;

let folder: string;
let dataDir: string;
let listener: Server;
let port: number;
let workerFile: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-sandbox-test-'));
  // A data folder as the server keeps it (0700), with the admin token in it.
  dataDir = path.join(folder, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  writeFileSync(path.join(dataDir, 'admin.json'), '{"token":"the-admin-token"}', { mode: 0o600 });
  listener = createServer((socket) => socket.end('connected'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
  workerFile = path.join(folder, 'section-worker.js');
  writeFileSync(workerFile, 'process.exit(0);\n');
});
afterAll(() => {
  listener.close();
  rmSync(folder, { recursive: true, force: true });
});

/** What a script with Node's full powers gets when it tries each thing. */
const ESCAPED = (frontPid: number) => `
const fs = require('node:fs');
const results = {};
const attempt = (name, run) => { try { results[name] = String(run()).slice(0, 80); } catch (error) { results[name] = 'refused: ' + (error.code || error.name); } };
attempt('server environ', () => fs.readFileSync('/proc/${frontPid}/environ', 'utf8').includes('PATH=') ? 'read' : 'empty');
attempt('data folder', () => fs.readFileSync(${JSON.stringify(path.join(dataDir, 'admin.json'))}, 'utf8'));
attempt('repository', () => fs.readFileSync(${JSON.stringify(REPO_FILE)}, 'utf8').slice(0, 10));
attempt('signal server', () => { process.kill(${frontPid}, 0); return 'sent'; });
attempt('code from a string', () => new Function('return "ran"')());
attempt('command', () => require('node:child_process').execFileSync('/usr/bin/id', ['-u']).toString().trim());
const socket = require('node:net').connect(${'${PORT}'}, '127.0.0.1');
socket.on('data', () => { results.connect = 'connected'; done(); });
socket.on('error', (error) => { results.connect = 'refused: ' + error.code; done(); });
function done() { process.stdout.write(JSON.stringify(results)); process.exit(0); }
`;

/** Node's own flags taken out of a launch: the kernel's layer alone. */
const NODE_LAYER = /^--(experimental-permission|allow-fs-read=|disallow-code-generation-from-strings|disable-warning=)/;

async function run(sandbox: Sandbox, withNodeLayer: boolean): Promise<Record<string, string>> {
  const script = ESCAPED(process.pid).replace('${PORT}', String(port));
  // In the worker's place: the one file the sandbox lets it read.
  chmodSync(sandbox.stagedFile, 0o644);
  writeFileSync(sandbox.stagedFile, script);
  chmodSync(sandbox.stagedFile, 0o444);
  const staged = sandbox.launch(64);
  const args = withNodeLayer ? staged.args : staged.args.filter((arg) => !NODE_LAYER.test(arg));
  return new Promise((resolve, reject) => {
    const child = spawn(staged.file, args, { uid: staged.uid, gid: staged.gid, env: staged.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out) as Record<string, string>);
      } catch {
        reject(new Error(`no results; stderr: ${err}`));
      }
    });
  });
}

testIfBubblewrap('bubblewrap alone: no other process, no data folder, no repository, no network', async () => {
  const choice = await chooseSandbox({ setting: 'bwrap', workerFile });
  if (!choice.sandbox) throw new Error(choice.problem);
  try {
    const results = await run(choice.sandbox, false);
    expect(results['server environ']).toMatch(/^refused: (ENOENT|EACCES)/);
    expect(results['data folder']).toMatch(/^refused: (ENOENT|EACCES)/);
    expect(results.repository).toMatch(/^refused: (ENOENT|EACCES)/);
    expect(results['signal server']).toMatch(/^refused: (ESRCH|EPERM)/);
    expect(results.connect).toMatch(/^refused: (ECONNREFUSED|ENETUNREACH)/);
  } finally {
    choice.sandbox.close();
  }
});

testIfRoot('another user alone (no bubblewrap): the server is refused to it, and the network is its own', async () => {
  const choice = await chooseSandbox({ setting: 'uid', workerFile, bwrapPath: undefined });
  if (!choice.sandbox) throw new Error(choice.problem);
  try {
    expect(choice.sandbox.description).toContain('network namespace of its own');
    const results = await run(choice.sandbox, false);
    expect(results['server environ']).toMatch(/^refused: EACCES/);
    expect(results['data folder']).toMatch(/^refused: EACCES/);
    expect(results['signal server']).toMatch(/^refused: EPERM/);
    expect(results.connect).toMatch(/^refused: (ECONNREFUSED|ENETUNREACH)/);
    // The kernel lets another user read what every user may (the permission
    // model below closes that); under a private folder it refuses already.
    expect(results.repository).toBe(readableByOthers(REPO_FILE) ? '{\n  "name"' : 'refused: EACCES');
  } finally {
    choice.sandbox.close();
  }
});

test("Node's permission model alone (the weak mode): files, commands and code from strings refused; sockets and signals not", async () => {
  const choice = await chooseSandbox({ setting: 'weak', workerFile });
  if (!choice.sandbox) throw new Error(choice.problem);
  try {
    expect(choice.warning).toContain('never in production');
    const results = await run(choice.sandbox, true);
    expect(results['server environ']).toBe('refused: ERR_ACCESS_DENIED');
    expect(results['data folder']).toBe('refused: ERR_ACCESS_DENIED');
    expect(results.repository).toBe('refused: ERR_ACCESS_DENIED');
    expect(results.command).toBe('refused: ERR_ACCESS_DENIED');
    expect(results['code from a string']).toBe('refused: EvalError');
    // Why this layer is never the boundary on its own.
    expect(results.connect).toBe('connected');
    expect(results['signal server']).toBe('sent');
  } finally {
    choice.sandbox.close();
  }
});

test('neither bubblewrap nor root: no sandbox, and the reason says how to get one (the server then renders every section in the browser)', async () => {
  const choice = await chooseSandbox({ setting: 'auto', workerFile, bwrapPath: undefined, isRoot: false });
  expect(choice.sandbox).toBeUndefined();
  expect(choice).toMatchObject({ problem: expect.stringContaining('apt-get install bubblewrap') });
  const named = await chooseSandbox({ setting: 'bwrap', workerFile, bwrapPath: undefined });
  expect(named).toMatchObject({ problem: expect.stringContaining('bubblewrap is not installed') });
  const wrong = await chooseSandbox({ setting: 'none', workerFile });
  expect(wrong).toMatchObject({ problem: 'PORTICO_SSR_SANDBOX must be one of auto, bwrap, uid, weak, got "none"' });
});
