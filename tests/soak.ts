// `npm run test:soak -- [--runs N] [--here]`: the browser suite N times in a
// row (5 by default) on a fresh clone of this repository's HEAD, with one
// core kept busy by a bounded background loop, as on a CI machine that is
// doing something else too. Prints passes and failures per test; exits 1 if
// any test failed once. --here runs in this checkout (built already) instead.
//
// A flaky test shows here, not at random in someone's CI run: retries stay 0.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './support/paths';

interface Options {
  runs: number;
  here: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 5, here: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--here') options.here = true;
    else if (arg === '--runs') {
      const runs = Number(argv[(i += 1)]);
      if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error('--runs takes a whole number from 1 to 50');
      options.runs = runs;
    } else throw new Error(`unknown argument ${arg}; usage: npm run test:soak -- [--runs N] [--here]`);
  }
  return options;
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

function step(what: string, command: string, args: string[], cwd: string): void {
  const started = Date.now();
  process.stdout.write(`${what}...`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  process.stdout.write(` ${seconds(started)}\n`);
}

/** A fresh clone of HEAD, installed and built as CI does it. */
function freshClone(): { root: string; remove: () => void } {
  const parent = mkdtempSync(path.join(tmpdir(), 'portico-soak-'));
  const root = path.join(parent, 'portico');
  step(`git clone (HEAD) into ${root}`, 'git', ['clone', '--quiet', '--no-hardlinks', REPO_ROOT, root], parent);
  step('npm ci', 'npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], root);
  step('npm run build', 'npm', ['run', 'build', '--silent'], root);
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
        // eslint-disable-next-line no-control-regex -- terminal colours in Playwright's messages
        const error = (last?.error?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0] ?? '';
        found.push({ name, passed, error });
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of report.suites) visit(suite, []);
  return found;
}

/** One run of the browser suite in `root`; `secondBuild` is reused after the first run. */
function runSuite(root: string, run: number, env: NodeJS.ProcessEnv): Promise<{ outcomes: Outcome[]; output: string; errors: string[] }> {
  const jsonFile = path.join(tmpdir(), `portico-soak-${process.pid}-${run}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['playwright', 'test', '--reporter=dot,json'], {
      cwd: path.join(root, 'tests'),
      env: { ...process.env, ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      if (!existsSync(jsonFile)) return reject(new Error(`run ${run} wrote no report; its output:\n${output.slice(-4000)}`));
      const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
      rmSync(jsonFile, { force: true });
      resolve({ outcomes: outcomes(report), output, errors: (report.errors ?? []).map((error) => error.message ?? '') });
    });
  });
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const clone = options.here ? { root: REPO_ROOT, remove: () => undefined } : freshClone();
  // At most 20 minutes a run: the loop cannot outlive a soak that hangs by much.
  const stopBusy = busyCore(options.runs * 20 * 60_000);
  const tally = new Map<string, { passes: number; failures: string[] }>();
  const env: NodeJS.ProcessEnv = { PORTICO_KEEP_SECOND_BUILD: '1' };
  let secondBuild: string | undefined;
  let suiteErrors = 0;
  try {
    for (let run = 1; run <= options.runs; run += 1) {
      const runStarted = Date.now();
      const result = await runSuite(clone.root, run, env);
      secondBuild ??= /second build of the four apps in (\S+) \(/.exec(result.output)?.[1];
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
      process.stdout.write(`run ${run}/${options.runs}: ${result.outcomes.length - failed} passed, ${failed} failed (${seconds(runStarted)}, one core busy)\n`);
    }
  } finally {
    stopBusy();
    if (secondBuild) rmSync(secondBuild, { recursive: true, force: true });
    clone.remove();
  }

  const failing = [...tally].filter(([, entry]) => entry.failures.length > 0);
  process.stdout.write(`\n${tally.size} tests, ${options.runs} runs, ${seconds(started)} in all\n`);
  for (const [name, entry] of failing) {
    process.stdout.write(`FAILED ${entry.failures.length} of ${options.runs}: ${name}\n`);
    for (const failure of entry.failures) process.stdout.write(`    ${failure}\n`);
  }
  const total = failing.reduce((sum, [, entry]) => sum + entry.failures.length, 0);
  process.stdout.write(`${total === 0 && suiteErrors === 0 ? 'every test passed every run' : `${total} failures in ${failing.length} tests`}\n`);
  if (total > 0 || suiteErrors > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
