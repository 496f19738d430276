import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPortico, type RunningPortico } from '@portico/server';
import { APP_DIRS, APP_NAMES } from '@portico/shared-config/contract';

/**
 * `npm run measure:ssr`: the server-rendered page on loopback, after a build.
 * Serves a copy of the four builds (and the render worker) on MEASURE_PORT..+3
 * (9500 by default) and prints: the page's time with the cache off (every
 * request rendered by the worker) and on, the time from a redeploy of
 * Contact's node build to the page showing it, and the worker's memory.
 */
const ROOT = path.resolve(__dirname, '../..');
const PORT = Number(process.env.MEASURE_PORT ?? 9500);
const RUNS = Number(process.env.RUNS ?? 300);

function copyBuilds(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-measure-ssr-'));
  for (const app of APP_NAMES) cpSync(path.join(ROOT, APP_DIRS[app], 'dist'), path.join(root, APP_DIRS[app], 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'host/dist-node'), path.join(root, 'host/dist-node'), { recursive: true });
  return root;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

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

/** The worker's resident memory, from /proc (Linux). */
function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * A redeploy of Contact as docs/deploy.md orders it: the new node build
 * first (a changed label, a new content-addressed name), then the manifest
 * naming it. Resolves to the milliseconds until the page shows it.
 */
async function redeployDelay(root: string, url: string): Promise<number> {
  const dist = path.join(root, 'remote-contact/dist');
  const manifestFile = path.join(dist, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { metaData: { ssrRemoteEntry: { path: string; name: string; integrity: string } } };
  const entry = manifest.metaData.ssrRemoteEntry;
  const code = readFileSync(path.join(dist, entry.path, entry.name), 'utf8').replaceAll('Send message', 'Send your message');
  const digest = createHash('sha384').update(code).digest();
  const name = `remoteEntry.${digest.toString('hex').slice(0, 10)}.js`;
  writeFileSync(path.join(dist, entry.path, name), code);
  Object.assign(entry, { name, integrity: `sha384-${digest.toString('base64')}` });
  const started = performance.now();
  // The build's compressed copies of the manifest would be served instead: a real deploy replaces them too.
  for (const suffix of ['.br', '.gz']) rmSync(manifestFile + suffix, { force: true });
  writeFileSync(manifestFile, JSON.stringify(manifest));
  for (;;) {
    if ((await (await fetch(url)).text()).includes('Send your message')) return performance.now() - started;
    if (performance.now() - started > 30_000) throw new Error('the redeployed section did not show within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function serve(root: string, cache: boolean): Promise<RunningPortico> {
  return startPortico({ rootDir: root, basePort: PORT, host: '127.0.0.1', ssr: { cache }, log: (line) => console.error(line) });
}

async function main(): Promise<void> {
  const root = copyBuilds();
  try {
    let site = await serve(root, false);
    const uncached = await timePages(site.url, RUNS);
    const workerRss = rssMb(site.renderWorker()?.pid);
    await site.close();
    site = await serve(root, true);
    const cached = await timePages(site.url, RUNS);
    const redeploy = await redeployDelay(root, site.url);
    const afterRedeploy = rssMb(site.renderWorker()?.pid);
    await site.close();

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const mb = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(0)} MB`);
    console.log(`Server-rendered page on loopback, ${RUNS} sequential requests each (\`/\` and \`/?type=2\` alternately):`);
    console.log(`| measure | value |\n| --- | --- |`);
    console.log(`| page, cache off (every request rendered by the worker): p50 / p99 | ${ms(uncached.p50)} / ${ms(uncached.p99)} |`);
    console.log(`| page, cache on: p50 / p99 | ${ms(cached.p50)} / ${ms(cached.p99)} |`);
    console.log(`| redeploy of Contact's node build to the page showing it | ${ms(redeploy)} |`);
    console.log(`| render worker RSS after the uncached run / after the redeploy (new worker) | ${mb(workerRss)} / ${mb(afterRedeploy)} |`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
