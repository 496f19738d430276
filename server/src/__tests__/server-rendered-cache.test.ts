import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_DIRS } from '@portico/shared-config/contract';
import { RENDER_WORKER_PATH } from '../ssr/server-rendering';
import { startPortico, type RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';

/** Renders a page from the request alone and says which process did (the protocol: render/src/page/worker-protocol.ts). */
const FAKE_WORKER = `
process.on('message', (message) => {
  if (message.type === 'warm') process.send({ type: 'warmed', id: message.id });
  if (message.type === 'render') process.send({ type: 'page', id: message.id, html: '<!doctype html><p>rendered by ' + process.pid + '</p>', sections: {}, renderMs: 1 });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
`;

const site = makeBuiltSite();
mkdirSync(path.join(site.root, path.dirname(RENDER_WORKER_PATH)), { recursive: true });
writeFileSync(path.join(site.root, RENDER_WORKER_PATH), FAKE_WORKER);
const configPath = path.join(site.root, 'config.json');
const homeManifest = path.join(site.root, APP_DIRS.home, 'dist', 'mf-manifest.json');

let running: RunningPortico;
beforeAll(async () => {
  writeFileSync(configPath, JSON.stringify({ comName: 'Lender', email: 'help@lender.example', address: 'Somewhere', copyright: '(c) Lender' }));
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', configPath, log: () => undefined });
  // Home's manifest as this very server serves it: rewriting the file is a redeploy of Home.
  writeFileSync(
    configPath,
    JSON.stringify({
      comName: 'Lender',
      email: 'help@lender.example',
      address: 'Somewhere',
      copyright: '(c) Lender',
      remotes: { home: `http://127.0.0.1:${running.ports[1]!}/mf-manifest.json` },
    }),
  );
});
afterAll(async () => {
  await running.close();
  site.remove();
});

const state = () => running.renderWorker()!;

async function pages(): Promise<string[]> {
  return Promise.all(['/', '/?type=2'].map(async (target) => (await fetch(`${running.url}${target}`)).text()));
}

async function renewed(from: number): Promise<void> {
  const started = Date.now();
  while (state().generation === undefined || state().generation! <= from) {
    if (Date.now() - started > 8000) throw new Error(`no renewal after generation ${from} within 8 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test("a redeploy's new worker starts with an empty cache: the older worker's pages are dropped at the switch", async () => {
  // The first page names Home's manifest: the watcher fetches it and a worker that has it takes over.
  const first = state().generation!;
  await pages();
  await renewed(first);

  const before = state();
  const [page] = await pages();
  expect(page).toContain(`rendered by ${before.pid!}`);
  expect(state().cachedPages).toBe(2);

  writeFileSync(homeManifest, JSON.stringify({ id: 'home', redeployed: Date.now() }));
  await renewed(before.generation!);
  // Nothing was asked since: the old generation's pages went at the switch, not at the next request.
  expect(state().cachedPages).toBe(0);

  const [again] = await pages();
  expect(again).toContain(`rendered by ${state().pid!}`);
  expect(state().cachedPages).toBe(2);
}, 20_000);
