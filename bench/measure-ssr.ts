import { createHash } from 'node:crypto';
import { linesLogger } from '@portico/platform/testing';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startPortico, treeRssKb, type RunningPortico } from '@portico/server';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { formatRedeployReport, missedTargets, type MemorySnapshot, type RedeployReport, type StillRunning } from './redeploy-report';

/**
 * `npm run measure:ssr [-- --redeploys N] [--check]`: the server-rendered
 * page on loopback, after a build. Serves a copy of the four builds (and the
 * server workers) on MEASURE_PORT..+3 (9500 by default) and prints: how long
 * the server takes to start with every worker warm; the page's time with the
 * cache off (every request rendered by the shell worker and the sandboxed
 * section workers) and on; then N redeploys of Contact's node build in a row
 * (1 by default), each one's delay until the page shows it, the memory of
 * the front server (this process) and of Contact's live worker before and
 * after them, and whether any older Contact worker is still running.
 * `--check` exits 1 when a target is missed.
 */
const ROOT = REPO_ROOT;
const PORT = Number(process.env.MEASURE_PORT ?? 9500);
const RUNS = Number(process.env.RUNS ?? 300);
/** The label the redeploys change: `(build N)` is added to it, so each redeploy is a different build. */
const LABEL = /'Send message(?: \(build \d+\))?'/g;
/** No new worker generation for this long: the renewals a redeploy caused are over (the watcher polls each second). */
const QUIET_MS = 3000;
/**
 * How long the server may take to settle after the last redeploy showed: a
 * worker that is starting warms, and the one it replaces then has the
 * supervisor's grace (server/src/ssr/supervisor.ts) to be gone.
 */
const SETTLE_MS = 30_000;
/** The section whose redeploys are measured, and whose worker is the one watched. */
const SECTION = 'contact' as const;
const WORKER_FILE = 'section-worker.js';

function copyBuilds(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-measure-ssr-'));
  for (const app of APP_NAMES) cpSync(path.join(ROOT, APP_DIRS[app], 'dist'), path.join(root, APP_DIRS[app], 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'host/dist-node'), path.join(root, 'host/dist-node'), { recursive: true });
  return root;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timePages(url: string, runs: number): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const response = await fetch(`${url}/${run % 2 === 0 ? '' : '?type=2'}`);
    const html = await response.text();
    if (!html.includes('portico-page-data')) throw new Error('the page was not server-rendered');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** A few hundred visits, then each page in each encoding the server keeps, so every cache is as full as traffic makes it. */
async function fillCaches(url: string): Promise<void> {
  await timePages(url, RUNS);
  for (const encoding of ['br', 'gzip', 'identity']) {
    for (const target of ['/', '/?type=2']) await (await fetch(`${url}${target}`, { headers: { 'Accept-Encoding': encoding } })).arrayBuffer();
  }
}

/** A field of /proc/<pid>/status, or undefined once the process is gone (Linux). */
function procStatus(pid: number, field: string): string | undefined {
  try {
    return new RegExp(`^${field}:\\s+(.*)$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** Resident memory in MB (MiB), from VmRSS. */
function rssMb(pid: number | undefined): number | undefined {
  const kb = pid === undefined ? undefined : procStatus(pid, 'VmRSS');
  return kb === undefined ? undefined : Number.parseInt(kb, 10) / 1024;
}

/** Whether a process runs a section worker (its sandbox's command line names the staged worker file). */
function isSectionWorker(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .some((arg) => arg.endsWith(WORKER_FILE));
  } catch {
    return false;
  }
}

/** The live Contact worker's process (the sandbox around it, when there is one). */
const contactWorker = (site: RunningPortico) => site.renderWorker()?.sections[SECTION].pid;

/**
 * Every section worker this process started that still has a process entry,
 * a zombie (exited, not reaped) included. By its command line: this process
 * has other children (tsx's esbuild service, the shell worker).
 */
function workerProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => procStatus(pid, 'PPid') === String(process.pid) && isSectionWorker(pid));
}

/** Resident memory of a worker and the processes under it (its sandbox starts it two levels down), in MB. */
function treeRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined || procStatus(pid, 'VmRSS') === undefined) return undefined;
  return treeRssKb(pid) / 1024;
}

const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

const heapMb = ({ heapUsed, heapTotal, external }: NodeJS.MemoryUsage) => ({
  heap: heapUsed / 1024 / 1024,
  heapTotal: heapTotal / 1024 / 1024,
  external: external / 1024 / 1024,
});

/** The front server's memory and Contact's live worker's, after full collections in the front server (the worker's cannot be forced from outside). */
function snapshot(site: RunningPortico): MemorySnapshot {
  for (let pass = 0; pass < 3; pass += 1) collectGarbage();
  const state = site.renderWorker();
  return {
    front: { rss: rssMb(process.pid)!, ...heapMb(process.memoryUsage()) },
    workerRss: treeRssMb(state?.sections[SECTION].pid),
    cachedPages: state?.cachedPages ?? 0,
    generation: state?.sections[SECTION].generation,
  };
}

/**
 * A redeploy of Contact as docs/deploy.md orders it: a new node build first
 * (its label says `(build <build>)`, so it has a new content-addressed name),
 * then the manifest naming it. Resolves to the milliseconds until the page
 * shows it.
 */
async function redeployDelay(root: string, url: string, build: number): Promise<number> {
  const dist = path.join(root, 'remote-contact/dist');
  const manifestFile = path.join(dist, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { metaData: { ssrRemoteEntry: { path: string; name: string; integrity: string } } };
  const entry = manifest.metaData.ssrRemoteEntry;
  const label = `Send message (build ${build})`;
  const code = readFileSync(path.join(dist, entry.path, entry.name), 'utf8').replace(LABEL, `'${label}'`);
  if (!code.includes(label)) throw new Error("Contact's node build has no 'Send message' label to change");
  const digest = createHash('sha384').update(code).digest();
  const name = `remoteEntry.${digest.toString('hex').slice(0, 10)}.js`;
  writeFileSync(path.join(dist, entry.path, name), code);
  Object.assign(entry, { name, integrity: `sha384-${digest.toString('base64')}` });
  const started = performance.now();
  // The build's compressed copies of the manifest would be served instead: a real deploy replaces them too.
  for (const suffix of ['.br', '.gz']) rmSync(manifestFile + suffix, { force: true });
  // Renamed into place, as an upload tool does: a poll must not read a half-written manifest.
  writeFileSync(`${manifestFile}.next`, JSON.stringify(manifest));
  renameSync(`${manifestFile}.next`, manifestFile);
  for (;;) {
    if ((await (await fetch(url)).text()).includes(label)) return performance.now() - started;
    if (performance.now() - started > 30_000) throw new Error(`redeploy ${build} did not show within 30 s`);
    await sleep(25);
  }
}

/** The live worker's pid, sampled every few milliseconds: every worker that answered pages is seen. */
function trackWorkers(site: RunningPortico): { seen: Set<number>; stop: () => void } {
  const seen = new Set<number>();
  const sample = () => {
    const pid = contactWorker(site);
    if (pid !== undefined) seen.add(pid);
  };
  sample();
  const timer = setInterval(sample, 10);
  return { seen, stop: () => clearInterval(timer) };
}

/** Every section worker but the live ones that still has a process entry: the Contact workers seen live, and any other this process started. */
function otherWorkers(site: RunningPortico, seen: ReadonlySet<number>): StillRunning[] {
  const state = site.renderWorker();
  const live = new Set(Object.values(state?.sections ?? {}).map((worker) => worker?.pid));
  const pids = new Set([...[...seen].filter((pid) => procStatus(pid, 'State') !== undefined), ...workerProcesses()]);
  for (const pid of live) if (pid !== undefined) pids.delete(pid);
  return [...pids].map((pid) => ({ pid, wasLive: seen.has(pid), state: procStatus(pid, 'State') ?? 'gone' }));
}

/**
 * Waits until Contact's live worker has been the same for QUIET_MS and no
 * other section worker is left, at most SETTLE_MS.
 */
async function settle(site: RunningPortico, seen: ReadonlySet<number>): Promise<number> {
  const started = performance.now();
  let live = contactWorker(site);
  let since = performance.now();
  while (performance.now() - started < SETTLE_MS) {
    if (performance.now() - since >= QUIET_MS && otherWorkers(site, seen).length === 0) break;
    await sleep(25);
    const now = contactWorker(site);
    if (now !== live) {
      live = now;
      since = performance.now();
    }
  }
  return performance.now() - started;
}

async function measureRedeploys(root: string, site: RunningPortico, redeploys: number): Promise<RedeployReport> {
  const tracked = trackWorkers(site);
  try {
    await fillCaches(site.url);
    const start = snapshot(site);

    const delays: number[] = [];
    for (let build = 1; build <= redeploys; build += 1) delays.push(await redeployDelay(root, site.url, build));
    const settledMs = await settle(site, tracked.seen);
    const live = contactWorker(site);
    const stillRunning = otherWorkers(site, tracked.seen);

    await fillCaches(site.url);
    const after = snapshot(site);
    if (contactWorker(site) !== live) throw new Error("Contact's live worker changed while it was measured: the figures would mix two workers");
    return { redeploys, start, after, delays, workersSeen: tracked.seen.size, stillRunning, settledMs };
  } finally {
    tracked.stop();
  }
}

async function serve(root: string, cache: boolean): Promise<RunningPortico> {
  // N redeploys in a row are what is measured here: no churn bound holds them (a server holds a manifest past 5 new versions in 10 minutes).
  const manifestChurn = { versions: Number.POSITIVE_INFINITY };
  return startPortico({ rootDir: root, basePort: PORT, host: '127.0.0.1', ssr: { cache, manifestChurn }, log: linesLogger((line) => console.error(line)) });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { redeploys: { type: 'string', default: '1' }, check: { type: 'boolean', default: false } } });
  const redeploys = Number(values.redeploys);
  if (!Number.isInteger(redeploys) || redeploys < 1) throw new Error(`--redeploys takes a whole number of at least 1, not ${values.redeploys}`);

  const root = copyBuilds();
  try {
    const starting = performance.now();
    let site = await serve(root, false);
    const startMs = performance.now() - starting;
    const uncached = await timePages(site.url, RUNS);
    await site.close();
    site = await serve(root, true);
    let cached: { p50: number; p99: number };
    let report: RedeployReport;
    try {
      cached = await timePages(site.url, RUNS);
      report = await measureRedeploys(root, site, redeploys);
    } finally {
      await site.close();
    }

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`Server-rendered page on loopback, ${RUNS} sequential requests each (\`/\` and \`/?type=2\` alternately):\n`);
    console.log('| measure | value |\n| --- | --- |');
    console.log(
      `| server start, every worker warm (sandbox chosen, shell and three section workers started, each page rendered in both languages) | ${ms(startMs)} |`,
    );
    console.log(`| page, cache off (every request rendered by the worker): p50 / p99 | ${ms(uncached.p50)} / ${ms(uncached.p99)} |`);
    console.log(`| page, cache on: p50 / p99 | ${ms(cached.p50)} / ${ms(cached.p99)} |\n`);
    console.log(formatRedeployReport(report, RUNS));
    const missed = missedTargets(report);
    if (values.check && missed.length > 0) {
      console.error(`missed: ${missed.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
