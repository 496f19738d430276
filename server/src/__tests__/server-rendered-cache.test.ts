import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_DIRS } from '@portico/contract/sections';
import { startPortico, type RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';
import { writeFakeWorkers } from './fake-workers';

// The composed page's cache across a redeploy of one section, with workers
// that say which of them rendered (fake-workers.ts). Containment is not under
// test here (hostile-sections.test.ts), so the workers run in the weak sandbox.

const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
const homeDist = path.join(site.root, APP_DIRS.home, 'dist');

/** A redeploy of Home: a new node build, and the manifest that names it with its hash. */
function deployHome(build: string): void {
  mkdirSync(path.join(homeDist, 'server'), { recursive: true });
  writeFileSync(path.join(homeDist, 'server', 'remoteEntry.js'), build);
  const integrity = `sha384-${createHash('sha384').update(build).digest('base64')}`;
  const ssrRemoteEntry = { name: 'remoteEntry.js', path: 'server', type: 'commonjs-module', integrity };
  writeFileSync(path.join(homeDist, 'mf-manifest.json'), JSON.stringify({ id: 'portico_home', metaData: { publicPath: 'auto', ssrRemoteEntry }, exposes: [], shared: [] }));
}

let running: RunningPortico;
beforeAll(async () => {
  deployHome('/* the first build */');
  writeFileSync(configPath, JSON.stringify({ comName: 'Lender', email: 'help@lender.example', address: 'Somewhere', copyright: '(c) Lender' }));
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', configPath, log: () => undefined, ssr: { sandbox: { setting: 'weak' } } });
  // Home's manifest as this very server serves it: rewriting the files is a redeploy of Home.
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

  deployHome('/* the second build */');
  await until("Home's new worker live", () => (state().sections.home.generation ?? 0) > before);
  // Nothing was asked since: the pages went at the switch, not at the next request.
  expect(state().cachedPages).toBe(0);

  const again = workerMark(await homePage());
  expect(again).toBeDefined();
  expect(again).not.toBe(first);
}, 30_000);
