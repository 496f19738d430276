import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chooseSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import { WorkerUsers } from '../worker-users';

// Each mode of the sandbox, tried by a script that has already got out of
// its context (it holds `process` and `require`), against the table in
// docs/decisions/section-code.md ("What each sandbox mode guarantees"),
// which this test reads: a cell "kernel" is checked with Node's permission
// model and flags taken away (the kernel alone refuses it), "Node" with
// them, "open" with every layer (it gets through: the table hides nothing).
// hostile-sections.test.ts tries the same things through the whole path.

jest.setTimeout(120_000);

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const root = process.getuid?.() === 0;
const bubblewrap = existsSync('/usr/bin/bwrap');
/** CI installs bubblewrap and runs as root: there every mode is tested, none skipped. */
const testIfRoot = root || process.env.CI ? test : test.skip;
const testIfBubblewrap = (root && bubblewrap) || process.env.CI ? test : test.skip;

/** The modes table's rows, by the words of its first column. */
const ATTEMPTS: Record<string, string> = {
  "read the server's environment (`/proc/<pid>/environ`)": 'server environ',
  'read the data folder (0700)': 'data folder',
  'read a file outside `/usr` every user may read (the repository, `/etc`, `/tmp`)': 'public file',
  "see the machine's other processes (`/proc`)": 'processes',
  'signal the server': 'signal server',
  "signal another worker (another section's, another server's)": 'signal worker',
  "connect to the server's ports on loopback": 'tcp',
  'connect to a Unix socket in the file system that every user may write': 'unix socket',
  'connect to an abstract Unix socket': 'abstract socket',
  'run a command': 'command',
  'make code from a string': 'code from a string',
};

type Cell = 'kernel' | 'Node' | 'open';

/** The modes table as the decisions doc has it: per mode (the header's words), per attempt, its cell. */
function modesTable(): Record<string, Record<string, Cell>> {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/decisions/section-code.md'), 'utf8');
  const start = doc.indexOf('### What each sandbox mode guarantees');
  // To the next heading: the table is the section's only one.
  const section = doc.slice(start, doc.indexOf('\n#', start + 1));
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const [header, , ...body] = rows;
  const modes = header!.slice(1).map((mode) => mode.replace(/`/g, ''));
  const table: Record<string, Record<string, Cell>> = Object.fromEntries(modes.map((mode) => [mode, {}]));
  for (const [label, ...cells] of body) {
    for (const [index, cell] of cells.entries()) table[modes[index]!]![label!] = cell as Cell;
  }
  return table;
}

let folder: string;
let dataDir: string;
let publicFile: string;
let listener: Server;
let unixListener: Server;
let abstractListener: Server;
let port: number;
let unixPath: string;
let abstractName: string;
let workerFile: string;
/** A range of this test's own, apart from any server's default. */
const users = new WorkerUsers(2_000_000_000 + (process.pid % 10_000) * 64, 64);

/** Answers and hangs up; the script hangs up first as often as not. */
const answering = () =>
  createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end('connected');
  });
const listen = (server: Server, ...args: unknown[]) => new Promise<void>((resolve) => (server.listen as (...a: unknown[]) => void)(...args, resolve));

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-sandbox-test-'));
  // Reachable by every user: what keeps the data folder out is its own 0700, as the server keeps it.
  chmodSync(folder, 0o755);
  dataDir = path.join(folder, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  writeFileSync(path.join(dataDir, 'admin.json'), '{"token":"the-admin-token"}', { mode: 0o600 });
  publicFile = path.join(folder, 'public.txt');
  writeFileSync(publicFile, 'every user may read this', { mode: 0o644 });
  listener = answering();
  await listen(listener, 0, '127.0.0.1');
  port = (listener.address() as { port: number }).port;
  // A socket every user may write to, as a desktop's or a container engine's may be.
  unixPath = path.join(folder, 'open.sock');
  unixListener = answering();
  await listen(unixListener, unixPath);
  chmodSync(unixPath, 0o777);
  abstractName = `\0portico-sandbox-test-${process.pid}`;
  abstractListener = answering();
  await listen(abstractListener, abstractName);
  workerFile = path.join(folder, 'section-worker.js');
  writeFileSync(workerFile, 'process.exit(0);\n');
});
afterAll(async () => {
  await Promise.all([listener, unixListener, abstractListener].map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(folder, { recursive: true, force: true });
});

/** What a script with Node's full powers gets when it tries each thing. */
const escaped = (frontPid: number, workerPid: number) => `
const fs = require('node:fs');
const net = require('node:net');
const results = {};
const attempt = (name, run) => { try { results[name] = String(run()).slice(0, 80); } catch (error) { results[name] = 'refused: ' + (error.code || error.name); } };
attempt('server environ', () => fs.readFileSync('/proc/${frontPid}/environ', 'utf8').includes('PATH=') ? 'read' : 'empty');
attempt('data folder', () => fs.readFileSync(${JSON.stringify(path.join(dataDir, 'admin.json'))}, 'utf8'));
attempt('public file', () => fs.readFileSync(${JSON.stringify(publicFile)}, 'utf8'));
attempt('processes', () => fs.readFileSync('/proc/${frontPid}/cmdline', 'utf8').length > 0 ? 'seen' : 'empty');
attempt('signal server', () => { process.kill(${frontPid}, 0); return 'sent'; });
attempt('signal worker', () => { process.kill(${workerPid}, 0); return 'sent'; });
attempt('code from a string', () => new Function('return "ran"')());
attempt('command', () => require('node:child_process').execFileSync('/usr/bin/id', ['-u']).toString().trim());
const targets = { tcp: [${port}, '127.0.0.1'], 'unix socket': [${JSON.stringify(unixPath)}], 'abstract socket': [${JSON.stringify(abstractName)}] };
let pending = Object.keys(targets).length;
for (const [name, target] of Object.entries(targets)) {
  let socket;
  const settle = (value) => { if (results[name] !== undefined) return; results[name] = value; socket && socket.destroy(); if (--pending === 0) { process.stdout.write(JSON.stringify(results)); process.exit(0); } };
  try {
    socket = net.connect(...target);
    socket.on('connect', () => settle('connected'));
    socket.on('error', (error) => settle('refused: ' + error.code));
  } catch (error) {
    settle('refused: ' + (error.code || error.name));
  }
}
`;

/** A worker that waits to be signalled: says so, then sleeps. */
const SLEEPER = "process.stdout.write('ready\\n'); setInterval(() => undefined, 1000);\n";

/** Node's own flags taken out of a launch: the kernel's layer alone. */
const NODE_LAYER = /^--(experimental-permission|allow-fs-read=|disallow-code-generation-from-strings|disable-warning=)/;

/** The process a launch runs its script in: the last of the chain (bubblewrap and unshare start it further down). */
function innermost(pid: number): number {
  for (let current = pid; ; ) {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return current;
    }
    if (children.length === 0) return current;
    current = Number(children[0]);
  }
}

function place(sandbox: Sandbox, script: string): void {
  chmodSync(sandbox.stagedFile, 0o644);
  writeFileSync(sandbox.stagedFile, script);
  chmodSync(sandbox.stagedFile, 0o444);
}

function start(sandbox: Sandbox, withNodeLayer: boolean): { child: ChildProcess; release: () => void } {
  const launch = sandbox.launch(64);
  const args = withNodeLayer ? launch.args : launch.args.filter((arg) => !NODE_LAYER.test(arg));
  const child = spawn(launch.file, args, { uid: launch.uid, gid: launch.gid, env: launch.env, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, release: () => launch.release?.() };
}

/** What the escaped script gets in `sandbox`, with another worker of the same sandbox (another user's) running beside it. */
async function run(sandbox: Sandbox, withNodeLayer: boolean): Promise<Record<string, string>> {
  place(sandbox, SLEEPER);
  const other = start(sandbox, true);
  try {
    await new Promise<void>((resolve, reject) => {
      other.child.stdout!.on('data', () => resolve());
      other.child.on('exit', () => reject(new Error('the other worker did not start')));
    });
    place(sandbox, escaped(process.pid, innermost(other.child.pid!)));
    const attacker = start(sandbox, withNodeLayer);
    let out = '';
    let err = '';
    attacker.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    attacker.child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await new Promise((resolve) => attacker.child.on('exit', resolve));
    attacker.release();
    try {
      return JSON.parse(out) as Record<string, string>;
    } catch {
      throw new Error(`no results; stderr: ${err}`);
    }
  } finally {
    other.child.kill('SIGKILL');
    other.release();
  }
}

const MODES: Record<string, { options: Omit<SandboxOptions, 'workerFile'>; only: typeof test; description?: RegExp }> = {
  bwrap: { options: { setting: 'bwrap', users }, only: testIfBubblewrap },
  uid: { options: { setting: 'uid', bwrapPath: undefined, users }, only: testIfRoot, description: /in mount, PID and network namespaces of its own/ },
  'uid, no namespaces': {
    options: { setting: 'uid', bwrapPath: undefined, unsharePath: undefined, users },
    only: testIfRoot,
    description: /with no namespace/,
  },
  weak: { options: { setting: 'weak' }, only: test },
};

test('the modes table names every mode tested here and every attempt the script makes, and nothing else', () => {
  const table = modesTable();
  expect(Object.keys(table).sort()).toEqual(Object.keys(MODES).sort());
  for (const cells of Object.values(table)) {
    expect(Object.keys(cells).sort()).toEqual(Object.keys(ATTEMPTS).sort());
    for (const cell of Object.values(cells)) expect(['kernel', 'Node', 'open']).toContain(cell);
  }
});

for (const [mode, { options, only, description }] of Object.entries(MODES)) {
  only(`the ${mode} mode holds its column of the modes table`, async () => {
    const cells = modesTable()[mode]!;
    // As under a CI runner's or a hardened shell's umask: what the sandbox makes for its workers must not inherit it.
    const umask = process.umask(0o077);
    const choice = await chooseSandbox({ ...options, workerFile });
    if (!choice.sandbox) throw new Error(choice.problem);
    try {
      // With the warning, which says why a way was not taken.
      if (description) expect(`${choice.sandbox.description}\n(warning: ${choice.warning})`).toMatch(description);
      const kernelOnly = await run(choice.sandbox, false);
      const everyLayer = await run(choice.sandbox, true);
      const seen = Object.fromEntries(
        Object.entries(cells).map(([label, cell]) => {
          const result = (cell === 'kernel' ? kernelOnly : everyLayer)[ATTEMPTS[label]!]!;
          return [
            label,
            cell === 'open' ? (result.startsWith('refused') ? `refused (${result})` : 'open') : result.startsWith('refused') ? cell : `not refused (${result})`,
          ];
        }),
      );
      expect(seen).toEqual(cells);
    } finally {
      choice.sandbox.close();
      process.umask(umask);
    }
  });
}

testIfRoot(
  "the uid mode's namespaces that fail to start once are probed again: one failed start on a busy machine does not leave every section to the browser",
  async () => {
    const unshare = ['/usr/bin/unshare', '/bin/unshare'].find((file) => existsSync(file))!;
    const failedOnce = path.join(folder, 'unshare-failed-once');
    const flaky = path.join(folder, 'unshare-that-fails-once');
    // Fails as a mount in it did once under a full test run (exit 32), then does what unshare does.
    writeFileSync(
      flaky,
      `#!/bin/sh\nif [ ! -e '${failedOnce}' ]; then touch '${failedOnce}'; echo 'mount: failed mount system call' >&2; exit 32; fi\nexec '${unshare}' "$@"\n`,
      {
        mode: 0o755,
      },
    );
    const choice = await chooseSandbox({ setting: 'uid', workerFile, bwrapPath: undefined, unsharePath: flaky, isRoot: true, users });
    try {
      expect(existsSync(failedOnce)).toBe(true);
      expect(choice.sandbox?.description).toMatch(/in mount, PID and network namespaces of its own/);
    } finally {
      choice.sandbox?.close();
    }
  },
);

testIfRoot(
  "auto, as root: bubblewrap installed but not starting, the uid mode's namespaces; without them, none rather than the uid mode that leaves sockets open",
  async () => {
    const broken = path.join(folder, 'bwrap-that-fails');
    writeFileSync(broken, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const namespaced = await chooseSandbox({ setting: 'auto', workerFile, bwrapPath: broken, isRoot: true, users });
    // The problem, if any, is the operator's message: it says why the namespaces did not start.
    expect({ mode: namespaced.sandbox?.mode, problem: 'problem' in namespaced ? namespaced.problem : undefined }).toEqual({ mode: 'uid', problem: undefined });
    expect(namespaced.sandbox?.description).toMatch(/namespaces of its own/);
    namespaced.sandbox?.close();
    const none = await chooseSandbox({ setting: 'auto', workerFile, bwrapPath: broken, unsharePath: undefined, isRoot: true, users });
    expect(none.sandbox).toBeUndefined();
    expect(none).toMatchObject({
      problem: expect.stringContaining('the uid mode without them leaves sockets open, so it is used only when asked for (PORTICO_SSR_SANDBOX=uid)'),
    });
    // Where bubblewrap is not installed at all, it is taken, with a warning that says what is open.
    const open = await chooseSandbox({ setting: 'auto', workerFile, bwrapPath: undefined, unsharePath: undefined, isRoot: true, users });
    expect(open.sandbox?.mode).toBe('uid');
    expect(open).toMatchObject({ warning: expect.stringContaining('they can open sockets') });
    open.sandbox?.close();
  },
);

test('neither bubblewrap nor root: no sandbox, and the reason says how to get one (the server then renders every section in the browser)', async () => {
  const choice = await chooseSandbox({ setting: 'auto', workerFile, bwrapPath: undefined, isRoot: false });
  expect(choice.sandbox).toBeUndefined();
  expect(choice).toMatchObject({ problem: expect.stringContaining('apt-get install bubblewrap') });
  const named = await chooseSandbox({ setting: 'bwrap', workerFile, bwrapPath: undefined });
  expect(named).toMatchObject({ problem: expect.stringContaining('bubblewrap is not installed') });
  const wrong = await chooseSandbox({ setting: 'none', workerFile });
  expect(wrong).toMatchObject({ problem: 'PORTICO_SSR_SANDBOX must be one of auto, bwrap, uid, weak, got "none"' });
});
