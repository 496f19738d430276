import path from 'node:path';
import type { RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';
import { deployHome, startWithHome, writeFakeWorkers } from './fake-workers';

// The composed page's cache across a redeploy of one section, with workers
// that say which of them rendered (fake-workers.ts). Containment is not under
// test here (hostile-sections.test.ts), so the workers run in the weak sandbox.

const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
let running: RunningPortico;
beforeAll(async () => {
  running = await startWithHome(site.root, configPath);
}, 30_000);
afterAll(async () => {
  await running.close();
  site.remove();
});

const state = () => running.renderWorker()!;
const homePage = async () => (await fetch(running.url)).text();
const workerMark = (page: string) => /section by worker (\w+) in en/.exec(page)?.[1];

/** Polls until `check` holds; the server's own background work (polling manifests, warming workers) sets the pace. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await check()); tries += 1) {
    if (tries > 400) throw new Error(`${what}: not within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("a redeploy of one section: its new worker's HTML is in the next page, and the pages made with the old one are dropped at the switch", async () => {
  let first: string | undefined;
  await until('Home rendered on the server', async () => (first = workerMark(await homePage())) !== undefined);
  expect(state().cachedPages).toBeGreaterThan(0);
  const before = state().sections.home.generation!;

  deployHome(site.root, '/* the second build */');
  await until("Home's new worker live", () => (state().sections.home.generation ?? 0) > before);
  // Nothing was asked since: the pages went at the switch, not at the next request.
  expect(state().cachedPages).toBe(0);

  const again = workerMark(await homePage());
  expect(again).toBeDefined();
  expect(again).not.toBe(first);
}, 30_000);
