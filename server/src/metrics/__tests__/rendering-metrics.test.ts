import path from 'node:path';
import { eventually } from '@portico/testing/eventually';
import type { RunningPortico } from '../../portico-server';
import { makeBuiltSite } from '../../__tests__/built-site';
import { startWithHome, writeFakeWorkers } from '../../__tests__/fake-workers';
import { ServerMetrics } from '../server-metrics';

// The rendering's metrics from a real pipeline, with the workers that say
// which of them rendered (fake-workers.ts) in the weak sandbox: the page
// cache's misses and hits as pages are asked for, the workers by state, and
// a section worker killed counted as a restart. Checked to fail without the
// pipeline's counts (hits and misses stayed 0) and without the supervisor's
// onDeath (the restart stayed 0).

jest.setTimeout(60_000);

const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
let running: RunningPortico;
const metrics = new ServerMetrics();

beforeAll(async () => {
  running = await startWithHome(site.root, configPath);
  metrics.watch({ rendering: () => running.renderWorker() });
}, 30_000);

afterAll(async () => {
  await running.close();
  site.remove();
});

async function valueOf(series: string): Promise<number | undefined> {
  const line = (await metrics.text()).text.split('\n').find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const homeRendered = async () => /section by worker \w+ in en/.test(await (await fetch(running.url)).text());

test('a page composed is a miss, the same page again a hit', async () => {
  // Home's worker warms after the port opens: until then pages leave it to the browser.
  await eventually(homeRendered, { what: 'Home rendered on the server', withinMs: 20_000 });
  expect(await valueOf('portico_page_cache_lookups_total{result="miss"}')).toBeGreaterThanOrEqual(1);
  // A worker switching meanwhile drops the kept pages (a miss again): then the next pair is asked.
  await eventually(
    async () => {
      const misses = (await valueOf('portico_page_cache_lookups_total{result="miss"}'))!;
      const hits = (await valueOf('portico_page_cache_lookups_total{result="hit"}'))!;
      await homeRendered();
      await homeRendered();
      const missed = (await valueOf('portico_page_cache_lookups_total{result="miss"}'))! - misses;
      const hit = (await valueOf('portico_page_cache_lookups_total{result="hit"}'))! - hits;
      return missed === 0 && hit === 2;
    },
    { what: 'two pages answered from the cache, counted as two hits and no miss', withinMs: 20_000 },
  );
  expect(await valueOf('portico_render_workers{kind="shell",state="live"}')).toBe(1);
  expect(await valueOf('portico_render_workers{kind="section",state="live"}')).toBeGreaterThanOrEqual(1);
});

test('a section worker killed is counted as a restart, and its replacement is live again', async () => {
  const before = (await valueOf('portico_render_worker_restarts_total{kind="section"}'))!;
  const pid = running.renderWorker()!.sections.home.pid!;
  process.kill(pid, 'SIGKILL');
  await eventually(async () => (await valueOf('portico_render_worker_restarts_total{kind="section"}')) === before + 1, { what: 'the death counted' });
  await eventually(() => (running.renderWorker()!.sections.home.pid ?? pid) !== pid, { what: "Home's worker restarted", withinMs: 20_000 });
  expect(await valueOf('portico_render_worker_restarts_total{kind="shell"}')).toBe(0);
});
