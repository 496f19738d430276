import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run serve` runs server/serve.cjs, which starts the compiled server
// only when it is there and made from the sources as they are: otherwise a
// change would not be served with no sign of it. Tried on a copy of the
// launcher in a checkout of its own, with a compiled "server" that only says
// it started.

const SERVER_DIR = path.resolve(__dirname, '../..');
let checkout: string;

beforeEach(() => {
  checkout = mkdtempSync(path.join(tmpdir(), 'portico-launcher-'));
  mkdirSync(path.join(checkout, 'server/compile'), { recursive: true });
  mkdirSync(path.join(checkout, 'server/src'), { recursive: true });
  copyFileSync(path.join(SERVER_DIR, 'serve.cjs'), path.join(checkout, 'server/serve.cjs'));
  copyFileSync(path.join(SERVER_DIR, 'compile/compiled-server.cjs'), path.join(checkout, 'server/compile/compiled-server.cjs'));
  writeFileSync(path.join(checkout, 'server/src/main.ts'), 'export {};\n');
});
afterEach(() => rmSync(checkout, { recursive: true, force: true }));

/** A compiled server made at `builtAt` from server/src/main.ts. */
function compile(builtAt: number): void {
  mkdirSync(path.join(checkout, 'server/dist'), { recursive: true });
  writeFileSync(path.join(checkout, 'server/dist/main.js'), "exports.servePortico = () => console.log('started');\n");
  writeFileSync(path.join(checkout, 'server/dist/inputs.json'), JSON.stringify({ builtAt, inputs: ['server/src/main.ts'] }));
}

const serve = (...args: string[]) => spawnSync(process.execPath, [path.join(checkout, 'server/serve.cjs'), ...args], { encoding: 'utf8' });

test('not built: exit code 1, and what to run', () => {
  const run = serve();
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/the compiled server is missing \(server\/dist\/main\.js\); run `npm run build`/);
  expect(run.stdout).toBe('');
});

test('a source changed after the build: exit code 1, naming it', () => {
  compile(Date.now() - 60_000);
  const run = serve();
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('the compiled server is older than its sources (server/src/main.ts changed since it was built)');
  expect(run.stdout).toBe('');
});

test('a source gone since the build: exit code 1', () => {
  compile(Date.now() + 60_000);
  rmSync(path.join(checkout, 'server/src/main.ts'));
  expect(serve().status).toBe(1);
});

test('built from the sources as they are: the server starts; --check only says so', () => {
  const past = new Date(Date.now() - 60_000);
  utimesSync(path.join(checkout, 'server/src/main.ts'), past, past);
  compile(Date.now());
  expect(execFileSync(process.execPath, [path.join(checkout, 'server/serve.cjs')], { encoding: 'utf8' })).toBe('started\n');
  const check = serve('--check');
  expect(check.status).toBe(0);
  expect(check.stdout).toBe('');
});
