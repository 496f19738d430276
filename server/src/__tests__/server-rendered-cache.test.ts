import path from 'node:path';
import type { RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';
import { deployHome, startWithHome, writeFakeWorkers } from './fake-workers';
import { eventually } from '@portico/testing/eventually';

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

test("a redeploy of one section: its new worker's HTML is in the next page, and the pages made with the old one are dropped at the switch", async () => {
  let first: string | undefined;
  // Kept once served: as the workers warm, a switch may drop the first pages, so the check is on a page served and kept.
  await eventually(
    async () => {
      first = workerMark(await homePage());
      return first !== undefined && state().cachedPages > 0;
    },
    { what: 'Home rendered on the server, and the page kept', withinMs: 20_000 },
  );
  const before = state().sections.home.generation!;

  deployHome(site.root, '/* the second build */');
  // A bound, not a speed claim: the watcher's next poll and a new worker's warm-up, beside the rest of npm test on two cores (once over 20 s there).
  await eventually(() => (state().sections.home.generation ?? 0) > before, { what: "Home's new worker live", withinMs: 60_000 });
  // Nothing was asked since: the pages went at the switch, not at the next request.
  expect(state().cachedPages).toBe(0);

  const again = workerMark(await homePage());
  expect(again).toBeDefined();
  expect(again).not.toBe(first);
}, 90_000);
