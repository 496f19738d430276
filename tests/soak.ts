// `npm run test:soak -- [--runs N] [--browser] [--here]`: the whole `npm test`
// (types, lint, build, jest, browser) N times in a row (1 by default) on a
// fresh clone of this repository's HEAD, in a folder under a private (0700)
// one, as `/root` or a Debian 12 home is, under a umask of 077, with one
// core kept busy by a bounded background loop, as on a CI machine that is
// doing something else too. Prints each run's time and every failing test; exits 1 if any run
// failed. --browser runs only the browser suite (after one build), N times
// (5 by default), with a tally per test; --here runs in this checkout.
//
// A test that depends on where the clone lives or on how fast the machine
// is shows here, not at random in someone's CI run: retries stay 0.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './support/paths';

interface Options {
  runs: number;
  browser: boolean;
  here: boolean;
}

function parseArgs(argv: string[]): Options {
  let runs: number | undefined;
  let browser = false;
  let here = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--here') here = true;
    else if (arg === '--browser') browser = true;
    else if (arg === '--runs') {
      runs = Number(argv[(i += 1)]);
      if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error('--runs takes a whole number from 1 to 50');
    } else throw new Error(`unknown argument ${arg}; usage: npm run test:soak -- [--runs N] [--browser] [--here]`);
  }
  return { runs: runs ?? (browser ? 5 : 1), browser, here };
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

function step(what: string, command: string, args: string[], cwd: string): void {
  const started = Date.now();
  process.stdout.write(`${what}...`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  process.stdout.write(` ${seconds(started)}\n`);
}

/** A fresh clone of HEAD under a private folder, installed as CI does it (`npm ci`). */
function freshClone(): { root: string; remove: () => void } {
  const parent = mkdtempSync(path.join(tmpdir(), 'portico-soak-'));
  // mkdtemp makes it 0700 already; said here, since it is the point.
  chmodSync(parent, 0o700);
  const root = path.join(parent, 'portico');
  step(`git clone (HEAD) into ${root} (its parent 0700)`, 'git', ['clone', '--quiet', '--no-hardlinks', REPO_ROOT, root], parent);
  step('npm ci', 'npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], root);
  return { root, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/**
 * One core kept busy: a Node process spinning, for at most `limitMs` (so a
 * soak that is killed leaves nothing spinning for long), stopped at the end.
 */
function busyCore(limitMs: number): () => void {
  const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${limitMs}; while (Date.now() < end) {}`], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

/** Runs `command` in `root`, its output kept (and its last lines shown on failure); resolves with its code and output. */
function runCaptured(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

// eslint-disable-next-line no-control-regex -- terminal colours in the tools' output
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * The failures `npm test` printed: tsc's and eslint's error lines, jest's
 * failing tests (`●`) and suites (`FAIL`), Playwright's (`✘`), and jest's
 * warning about a worker it had to kill (a suite left something running).
 */
function failuresIn(output: string): string[] {
  const lines = plain(output).split('\n');
  const found = lines.filter(
    (line) =>
      /^\S.*\(\d+,\d+\): error TS\d+/.test(line) ||
      /^\s+\d+:\d+\s+error\s/.test(line) ||
      /^FAIL /.test(line) ||
      // Jest's "● Console" heads what a suite logged, not a failure.
      /^\s+● (?!Console$)/.test(line) ||
      /^\s+✘ /.test(line) ||
      /failed to exit gracefully/.test(line),
  );
  return [...new Set(found.map((line) => line.trim()))];
}

/** The whole `npm test`, N times: each run's code, time and failures. */
async function soakWhole(root: string, runs: number): Promise<number> {
  let failedRuns = 0;
  for (let run = 1; run <= runs; run += 1) {
    const started = Date.now();
    const { code, output } = await runCaptured('npm', ['test'], root);
    const failures = failuresIn(output);
    const tally = /Tests:\s+(.*)\n/.exec(plain(output))?.[1];
    const browser = /\n\s+(\d+ passed[^\n]*)\n(?![\s\S]*\d+ passed)/.exec(plain(output))?.[1];
    process.stdout.write(
      `run ${run}/${runs}: npm test exited ${code} in ${seconds(started)} (one core busy); jest: ${tally ?? 'did not run'}; browser: ${browser ?? 'did not run'}\n`,
    );
    for (const failure of failures) process.stdout.write(`    ${failure}\n`);
    if (code !== 0 || failures.length > 0) {
      failedRuns += 1;
      if (failures.length === 0) process.stdout.write(`${plain(output).slice(-4000)}\n`);
    }
  }
  process.stdout.write(`\n${failedRuns === 0 ? `every run passed (${runs})` : `${failedRuns} of ${runs} runs failed`}\n`);
  return failedRuns;
}

interface JsonResult {
  status: string;
  error?: { message?: string };
}
interface JsonSpec {
  title: string;
  file: string;
  line: number;
  tests: { projectName?: string; results: JsonResult[] }[];
}
interface JsonSuite {
  title: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites: JsonSuite[];
  errors?: { message?: string }[];
}

interface Outcome {
  name: string;
  passed: boolean;
  error: string;
}

function outcomes(report: JsonReport): Outcome[] {
  const found: Outcome[] = [];
  const visit = (suite: JsonSuite, titles: string[]) => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const last = test.results.at(-1);
        const name = `${spec.file}:${spec.line} › ${[...here, spec.title].join(' › ')}`;
        const passed = last?.status === 'passed' || last?.status === 'skipped';
        const error = plain(last?.error?.message ?? '').split('\n')[0] ?? '';
        found.push({ name, passed, error });
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of report.suites) visit(suite, []);
  return found;
}

/** One run of the browser suite in `root`. */
async function runBrowserSuite(root: string, run: number, env: NodeJS.ProcessEnv): Promise<{ outcomes: Outcome[]; output: string; errors: string[] }> {
  const jsonFile = path.join(tmpdir(), `portico-soak-${process.pid}-${run}.json`);
  const { output } = await runCaptured('npx', ['playwright', 'test', '--reporter=dot,json'], path.join(root, 'tests'), {
    ...env,
    PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile,
    PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile,
  });
  if (!existsSync(jsonFile)) throw new Error(`run ${run} wrote no report; its output:\n${output.slice(-4000)}`);
  const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
  rmSync(jsonFile, { force: true });
  return { outcomes: outcomes(report), output, errors: (report.errors ?? []).map((error) => error.message ?? '') };
}

/** The browser suite alone, N times, with a tally per test; the second build is made once and reused. */
async function soakBrowser(root: string, runs: number): Promise<number> {
  const tally = new Map<string, { passes: number; failures: string[] }>();
  const env: NodeJS.ProcessEnv = { PORTICO_KEEP_SECOND_BUILD: '1' };
  let secondBuild: string | undefined;
  let suiteErrors = 0;
  try {
    for (let run = 1; run <= runs; run += 1) {
      const runStarted = Date.now();
      const result = await runBrowserSuite(root, run, env);
      secondBuild ??= /second build of .+? in (\S+) \(/.exec(result.output)?.[1];
      if (secondBuild) env.PORTICO_SECOND_BUILD = secondBuild;
      for (const outcome of result.outcomes) {
        const entry = tally.get(outcome.name) ?? { passes: 0, failures: [] };
        if (outcome.passed) entry.passes += 1;
        else entry.failures.push(`run ${run}: ${outcome.error}`);
        tally.set(outcome.name, entry);
      }
      suiteErrors += result.errors.length;
      for (const error of result.errors) process.stdout.write(`run ${run}: suite error: ${error.split('\n')[0]}\n`);
      const failed = result.outcomes.filter((outcome) => !outcome.passed).length;
      process.stdout.write(`run ${run}/${runs}: ${result.outcomes.length - failed} passed, ${failed} failed (${seconds(runStarted)}, one core busy)\n`);
    }
  } finally {
    if (secondBuild) rmSync(secondBuild, { recursive: true, force: true });
  }
  const failing = [...tally].filter(([, entry]) => entry.failures.length > 0);
  process.stdout.write(`\n${tally.size} tests, ${runs} runs\n`);
  for (const [name, entry] of failing) {
    process.stdout.write(`FAILED ${entry.failures.length} of ${runs}: ${name}\n`);
    for (const failure of entry.failures) process.stdout.write(`    ${failure}\n`);
  }
  const total = failing.reduce((sum, [, entry]) => sum + entry.failures.length, 0);
  process.stdout.write(`${total === 0 && suiteErrors === 0 ? 'every test passed every run' : `${total} failures in ${failing.length} tests`}\n`);
  return total + suiteErrors;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  // A CI runner's or a hardened shell's umask: nothing the tests or the server make may rely on 022.
  process.umask(0o077);
  const clone = options.here ? { root: REPO_ROOT, remove: () => undefined } : freshClone();
  if (options.browser && !options.here) step('npm run build', 'npm', ['run', 'build', '--silent'], clone.root);
  // At most 30 minutes a run: the loop cannot outlive a soak that hangs by much.
  const stopBusy = busyCore(options.runs * 30 * 60_000);
  let failed = 0;
  try {
    failed = options.browser ? await soakBrowser(clone.root, options.runs) : await soakWhole(clone.root, options.runs);
  } finally {
    stopBusy();
    clone.remove();
  }
  process.stdout.write(`${seconds(started)} in all\n`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
