import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { mayRaiseTo } from '../../compile/start-priority.cjs';

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
  for (const launcher of ['serve.cjs', 'release.cjs']) copyFileSync(path.join(SERVER_DIR, launcher), path.join(checkout, 'server', launcher));
  for (const file of ['compiled-server.cjs', 'start-priority.cjs'])
    copyFileSync(path.join(SERVER_DIR, 'compile', file), path.join(checkout, 'server/compile', file));
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

test('the start runs lowered (PORTICO_START_NICE steps) until the server says it is ready, then at the priority it was launched with', () => {
  const past = new Date(Date.now() - 60_000);
  utimesSync(path.join(checkout, 'server/src/main.ts'), past, past);
  compile(Date.now());
  // A "server" that says its priority while starting, says it is ready (main.ts's onReady, as the page's port opens), then says it again.
  writeFileSync(
    path.join(checkout, 'server/dist/main.js'),
    "const os = require('node:os');\nexports.servePortico = ({ onReady }) => { console.log(os.getPriority()); onReady(); console.log(os.getPriority()); };\n",
  );
  const launched = getPriority();
  // Lowered only where the priority can be raised back (tests run as root: there it is).
  const lowers = mayRaiseTo(launched, { status: readFileSync('/proc/self/status', 'utf8'), limits: readFileSync('/proc/self/limits', 'utf8') });
  const run = (nice: string) =>
    execFileSync(process.execPath, [path.join(checkout, 'server/serve.cjs')], { encoding: 'utf8', env: { ...process.env, PORTICO_START_NICE: nice } })
      .trim()
      .split('\n')
      .map(Number);
  // Checked to fail without serve.cjs's lowering (the start said the launch's priority) and without its onReady (lowered after).
  expect(run('5')).toEqual([lowers ? Math.min(19, launched + 5) : launched, launched]);
  expect(run('0')).toEqual([launched, launched]);
});

// `npm run release` runs server/release.cjs: the compiled command when it is
// made from the sources as they are, else the sources through tsx, never a
// refusal (a team's CI may publish from a clone it never built).
describe('the release command', () => {
  const SOURCE = 'releases/src/cli/release-cli.ts';
  beforeEach(() => {
    mkdirSync(path.join(checkout, path.dirname(SOURCE)), { recursive: true });
    writeFileSync(path.join(checkout, SOURCE), "console.log('sources', process.argv.slice(2).join(' '));\nprocess.exitCode = 3;\n");
    utimesSync(path.join(checkout, SOURCE), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  });
  const compileRelease = (builtAt: number) => {
    mkdirSync(path.join(checkout, 'server/dist'), { recursive: true });
    writeFileSync(path.join(checkout, 'server/dist/release-cli.js'), "console.log('compiled', process.argv.slice(2).join(' '));\nprocess.exitCode = 4;\n");
    writeFileSync(path.join(checkout, 'server/dist/release-cli.inputs.json'), JSON.stringify({ builtAt, inputs: [SOURCE] }));
  };
  // Run from the repository, as npm runs it: the copy has no node_modules of its own to find tsx in.
  const release = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(checkout, 'server/release.cjs'), ...args], { encoding: 'utf8', cwd: path.resolve(SERVER_DIR, '..') });

  test('built from the sources as they are: the compiled command runs, with the arguments and its exit code', () => {
    compileRelease(Date.now());
    const run = release('status', '--hours', '2');
    expect(run.stdout).toBe('compiled status --hours 2\n');
    expect(run.status).toBe(4);
  });

  test('not built, or a source changed since: the sources run through tsx, with the arguments and their exit code', () => {
    const unbuilt = release('list', 'home');
    expect(unbuilt.stdout).toBe('sources list home\n');
    expect(unbuilt.status).toBe(3);
    compileRelease(Date.now() - 120_000);
    const stale = release('audit');
    expect(stale.stdout).toBe('sources audit\n');
    expect(stale.status).toBe(3);
  });
});
