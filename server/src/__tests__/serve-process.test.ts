import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedDataFolder } from '@portico/platform/testing';
import { builtHost, builtServer, serveNodeArgs } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { HostileCdn, MICROTASK_LOOP, stealPayload } from '@portico/testing/hostile-builds';
import { eventually } from '@portico/testing/eventually';
import { PROCESS_START_MS, startNodeProgram, waitForOutput, type NodeProgram } from '@portico/testing/processes';

// `npm run serve`'s own program, as an operator runs it, with secrets in its
// environment and messages in its data folder, against section builds that
// try to take them (@portico/testing/hostile-builds).

// A start, then what the test does with it (a render that waits 60 s, a stop within 15 s).
jest.setTimeout(PROCESS_START_MS + 90_000);

const REPO_ROOT = path.resolve(__dirname, '../../..');
const SECRET = `webhook-secret-${Math.random().toString(36).slice(2)}`;
const MESSAGE = `message-marker-${Math.random().toString(36).slice(2)}`;

/**
 * Five free ports in a row, for PORT=N (N…N+3, the control API on N+4).
 * Below Linux's ephemeral range (32768 and up): there, a connection or a
 * `listen(0)` of a test running beside this one can take a port between
 * this check and the server's listen.
 */
async function freePortBase(): Promise<number> {
  for (;;) {
    const base = 10_000 + Math.floor(Math.random() * 22_000);
    const free = await Promise.all(
      [0, 1, 2, 3, 4].map(
        (offset) =>
          new Promise<boolean>((resolve) => {
            const probe = createServer();
            probe.once('error', () => resolve(false));
            probe.listen(base + offset, () => probe.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return base;
  }
}

/** `npm run serve`'s program (@portico/testing/processes), with what the test set up for it. */
interface Serve extends NodeProgram {
  port: number;
  dataDir: string;
  /** Its TMPDIR, a folder of its own: where it stages the sandbox's copy of the worker. */
  tempDir: string;
  /** The staged sandbox folders in its TMPDIR now. */
  staged: () => string[];
  configure: (remotes: Record<string, string>) => void;
  /** Removes its config and data folder (once it has exited). */
  remove: () => void;
}

async function startServe(remotes: Record<string, string>, env: Record<string, string> = {}): Promise<Serve> {
  builtHost();
  const port = await freePortBase();
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-serve-process-'));
  const dataDir = path.join(folder, 'data');
  seedDataFolder(dataDir);
  const tempDir = path.join(folder, 'tmp');
  mkdirSync(tempDir);
  const configFile = path.join(folder, 'config.json');
  const configure = (next: Record<string, string>) => writeFileSync(configFile, JSON.stringify({ ...sampleConfig, remotes: next }));
  configure(remotes);
  const program = startNodeProgram(builtServer(), {
    nodeArgs: serveNodeArgs(),
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      PORTICO_CONFIG: configFile,
      PORTICO_DATA_DIR: dataDir,
      // Secrets of the kind the review found in /proc/<pid>/environ.
      PORTICO_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      PORTICO_WEBHOOK_SECRET: SECRET,
      TMPDIR: tempDir,
      // The most a page may take: what is looked for is what the sections render, and a busy machine (the whole jest run
      // beside it) must not turn the page into the client-rendered one, as the 400 ms default once did for a minute.
      PORTICO_SSR_BUDGET_MS: '10000',
      ...env,
    },
  });
  const staged = () => readdirSync(tempDir).filter((name) => name.startsWith('portico-sandbox-'));
  return { ...program, port, dataDir, tempDir, staged, configure, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

let cdn: HostileCdn;
beforeAll(async () => {
  cdn = await HostileCdn.start();
}, 300_000);
afterAll(() => cdn.close());

describe('a hostile Contact build on a running server', () => {
  let serve: Serve;
  const loadedModulesFile = path.join(mkdtempSync(path.join(tmpdir(), 'portico-loaded-')), 'loaded.json');
  let bystander: ChildProcess;
  /** A host of section builds no config.json names or pins, and what was asked of it. */
  let unpinned: Server;
  const unpinnedRequests: string[] = [];
  beforeAll(async () => {
    unpinned = createHttpServer((req, res) => {
      unpinnedRequests.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => unpinned.listen(0, '127.0.0.1', resolve));
    serve = await startServe(
      { home: cdn.publish('home', 'remote-home'), about: cdn.publish('about', 'remote-about'), contact: cdn.publish('contact', 'remote-contact') },
      {
        // The switch the benchmark once had in this program: it made the server fetch and run these with no pin.
        PORTICO_BENCH_STATIC_SECTIONS: `http://127.0.0.1:${(unpinned.address() as AddressInfo).port}/mf-manifest.json`,
        // What it has loaded, written on SIGUSR2 (testing/loaded-modules.cjs).
        NODE_OPTIONS: `--require ${path.join(REPO_ROOT, 'testing/loaded-modules.cjs')}`,
        PORTICO_TEST_LOADED_MODULES: loadedModulesFile,
      },
    );
    await waitForOutput(serve, `Portico is serving at http://localhost:${serve.port}`, { what: 'npm run serve' });
    bystander = spawn('sleep', ['600'], { stdio: 'ignore' });
  });
  afterAll(async () => {
    bystander.kill('SIGKILL');
    serve.child.kill('SIGTERM');
    await serve.exited;
    unpinned.close();
    serve.remove();
  });

  test('runs the compiled server, with neither a TypeScript compiler nor webpack loaded', async () => {
    serve.child.kill('SIGUSR2');
    await eventually(() => existsSync(loadedModulesFile), { what: 'the list of loaded modules' });
    const loaded = JSON.parse(readFileSync(loadedModulesFile, 'utf8')) as { execArgv: string[]; modules: string[] };
    expect(loaded.execArgv.join(' ')).not.toMatch(/tsx|ts-node|swc/);
    expect(loaded.modules).toContain(path.join(REPO_ROOT, 'server/dist/main.js'));
    const toolchain = /node_modules\/(webpack|webpack-cli|tsx|typescript|esbuild|@swc|swc-loader|html-webpack-plugin|mini-css-extract-plugin)\//;
    expect(loaded.modules.filter((file) => toolchain.test(file))).toEqual([]);
    // Nor any workspace's TypeScript source: every @portico package is in the compiled file.
    expect(loaded.modules.filter((file) => /\.tsx?$/.test(file))).toEqual([]);
  });

  test("runs with npm run serve's node flags: a young generation of 8 MB, not the 32 MB V8 grows it to by the ready line", async () => {
    const token = readFileSync(path.join(serve.dataDir, 'control-token'), 'utf8').trim();
    const metrics = await (await fetch(`http://127.0.0.1:${serve.port + 4}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
    const newSpace = Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)$/m.exec(metrics)?.[1]);
    // Checked: started without serveNodeArgs() it reads 33554432 here.
    expect(newSpace).toBeGreaterThan(0);
    expect(newSpace).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  test("runs with npm run serve's node flags: the embedded database's WebAssembly left in V8's baseline compiler, never tiered up", async () => {
    // TurboFan's tier-up of PostgreSQL's hottest functions took 50-90 MB of
    // malloc that glibc kept resident (docs/decisions/performance.md). V8
    // reads these flags from node's command line only, where `npm run serve` puts them.
    if (!existsSync(loadedModulesFile)) serve.child.kill('SIGUSR2');
    await eventually(() => existsSync(loadedModulesFile), { what: 'the list of loaded modules' });
    const { execArgv } = JSON.parse(readFileSync(loadedModulesFile, 'utf8')) as { execArgv: string[] };
    expect(execArgv).toEqual(expect.arrayContaining(['--no-wasm-dynamic-tiering', '--no-wasm-tier-up']));
  });

  test('no setting makes it fetch a section build that config.json does not name', () => {
    // The first poll of every watched manifest ends before the port opens: one named only by a setting would have been asked for by now.
    expect(unpinnedRequests).toEqual([]);
  });

  test('cannot read the secrets, the token or the messages, run a command, reach the endpoints or stop a process; the site goes on', async () => {
    const origin = `http://localhost:${serve.port}`;
    const stored = await fetch(`${origin}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ name: 'Asha', telephone: '+91 98765 43210', message: MESSAGE, language: 'en', idempotencyKey: 'hostile-test-0001' }),
    });
    expect(stored.status).toBe(201);
    // The owner token a fresh install writes, and the control API that takes it.
    const admin = { token: readFileSync(path.join(serve.dataDir, 'control-token'), 'utf8').trim(), port: serve.port + 4 };

    serve.configure({
      home: cdn.publish('home', 'remote-home'),
      about: cdn.publish('about', 'remote-about'),
      contact: cdn.publish(
        'steal',
        'remote-contact',
        stealPayload({
          secretName: 'PORTICO_WEBHOOK_SECRET',
          files: [path.join(serve.dataDir, 'control-token'), path.join(serve.dataDir, 'server.lock'), path.join(REPO_ROOT, 'README.md'), '/etc/shadow'],
          frontPid: serve.child.pid!,
          otherPid: bystander.pid!,
          ports: [serve.port, admin.port],
        }),
      ),
    });
    let html = '';
    await eventually(async () => (html = await (await fetch(origin)).text()).includes('STOLEN:'), {
      what: 'the hostile build rendered on the server',
      withinMs: 60_000,
    });

    // It ran, on the server, and got nothing.
    const findings = JSON.parse(/STOLEN:(\{.*?\})</.exec(html.replaceAll('&quot;', '"'))?.[1] ?? '{}') as Record<string, string>;
    expect(findings['escape through console']).toMatch(/^refused/);
    for (const leaked of [SECRET, admin.token, MESSAGE, 'uid=', 'Portico: for the developers', 'root:']) expect(html).not.toContain(leaked);
    // The server and the other process are still there, and the store holds the one message it was given.
    expect(bystander.exitCode).toBeNull();
    expect(serve.child.exitCode).toBeNull();
    expect((await fetch(origin)).status).toBe(200);
    const messages = (await (
      await fetch(`http://127.0.0.1:${admin.port}/api/messages`, { headers: { Authorization: `Bearer ${admin.token}` } })
    ).json()) as unknown[];
    expect(messages).toHaveLength(1);
  });

  test("takes the page's visit reports on its own port, and the control API shows each section's health", async () => {
    const origin = `http://localhost:${serve.port}`;
    const report = (headers: Record<string, string>) =>
      fetch(`${origin}/api/beacon`, { method: 'POST', headers: { 'Content-Type': 'text/plain;charset=UTF-8', ...headers }, body: '{}' });
    // Open (not 503): the store is, and the body is checked.
    expect((await report({ Origin: origin })).status).toBe(400);
    expect((await report({ Origin: 'https://elsewhere.example' })).status).toBe(403);
    // Its visit ids too: a token that is none of the site's is refused, one from another origin not read.
    const ask = (headers: Record<string, string>) =>
      fetch(`${origin}/api/visit`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ token: 'a.b' }) });
    expect((await ask({ Origin: origin })).status).toBe(400);
    expect((await ask({ Origin: 'https://elsewhere.example' })).status).toBe(403);
    const token = readFileSync(path.join(serve.dataDir, 'control-token'), 'utf8').trim();
    const sections = (await (
      await fetch(`http://127.0.0.1:${serve.port + 4}/api/sections`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as Record<string, unknown>;
    expect(sections.contact).toMatchObject({ health: {}, healthSince: expect.any(String) });
  });
});

test('SIGTERM while a section worker fails to start: the process exits within 15 s, its lock and its staged folder removed', async () => {
  const serve = await startServe({ home: cdn.publish('home', 'remote-home'), contact: cdn.publish('microtask-loop', 'remote-contact', MICROTASK_LOOP) });
  // Its worker loops from its start; the host's port waits for it (until its first death, at most 10 s).
  await waitForOutput(serve, 'opens once the first render worker is warm', { what: 'npm run serve' });
  expect(serve.output()).not.toContain('Portico is serving at');
  expect(existsSync(path.join(serve.dataDir, 'server.lock'))).toBe(true);

  serve.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([serve.exited, new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), 15_000)))]);
  // Not left pending: a timer that outlives its test keeps jest's worker from exiting.
  clearTimeout(timer);
  if (code === 'still running') serve.child.kill('SIGKILL');
  expect(code).toBe(0);
  expect(existsSync(path.join(serve.dataDir, 'server.lock'))).toBe(false);
  expect(serve.staged()).toEqual([]);
  serve.remove();
});

test('SIGTERM while the sandbox is chosen (its copy of the worker just staged): the process exits and leaves no staged folder behind', async () => {
  const serve = await startServe({ home: cdn.publish('home', 'remote-home') });
  // The moment the copy is there: the sandbox's probe is under way, no port is open for the page.
  await eventually(() => serve.staged().length > 0, { what: 'the staged folder', withinMs: 60_000 });
  serve.child.kill('SIGTERM');
  const code = await serve.exited;
  expect(code).toBe(0);
  expect(serve.output()).not.toContain('Portico is serving at');
  expect(serve.staged()).toEqual([]);
  serve.remove();
});
