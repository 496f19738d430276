import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startPortico, type RunningPortico } from '@portico/server';
import { makeBuiltSite } from '../../server/src/__tests__/built-site';
import { deployHome, writeFakeWorkers } from '../../server/src/__tests__/fake-workers';
import { staticSections } from '../static-sections-stage';
import { eventually } from '@portico/testing/eventually';

// The benchmark's stage (static-sections-stage.ts): more static sections,
// rendered on the server after Home and never named to the browser. The
// workers are the server's fakes (server/src/__tests__/fake-workers.ts),
// which render the words of the build they were given.

/** Two more sections' manifests and node builds on a server of their own: one static, one interactive. */
function extraFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, hydration] of [
    ['quiet', { mode: 'static' }],
    ['lively', { mode: 'interactive', when: ['load'] }],
  ] as const) {
    const build = `/* the ${name} extra */`;
    const integrity = `sha384-${createHash('sha384').update(build).digest('base64')}`;
    files.set(`/${name}/server/remoteEntry.js`, build);
    files.set(
      `/${name}/mf-manifest.json`,
      JSON.stringify({
        id: `bench_${name}`,
        metaData: { publicPath: 'auto', ssrRemoteEntry: { name: 'remoteEntry.js', path: 'server', type: 'commonjs-module', integrity }, hydration },
        exposes: [],
        shared: [],
      }),
    );
  }
  return files;
}

const COMPANY = { comName: 'Lender', email: 'help@lender.example', address: 'Somewhere', copyright: '(c) Lender' };
const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
let extras: Server;
let running: RunningPortico;
let extrasOrigin: string;
beforeAll(async () => {
  const files = extraFiles();
  extras = createServer((req, res) => {
    const body = files.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200).end(body);
  });
  await new Promise<void>((resolve) => extras.listen(0, '127.0.0.1', resolve));
  extrasOrigin = `http://127.0.0.1:${(extras.address() as AddressInfo).port}`;
  deployHome(site.root, '/* the home build */', { mode: 'static' });
  writeFileSync(configPath, JSON.stringify(COMPANY));
  running = await startPortico({
    rootDir: site.root,
    basePort: 0,
    host: '127.0.0.1',
    configPath,
    log: () => undefined,
    ssr: { sandbox: { setting: 'weak' }, stages: [staticSections([`${extrasOrigin}/quiet/mf-manifest.json`, `${extrasOrigin}/lively/mf-manifest.json`])] },
  });
  writeFileSync(configPath, JSON.stringify({ ...COMPANY, remotes: { home: `http://127.0.0.1:${running.ports[1]!}/mf-manifest.json` } }));
}, 30_000);
afterAll(async () => {
  await running.close();
  extras.close();
  site.remove();
});

/** The page once `check` holds of it; the server's background work (polling manifests, warming workers) sets the pace. */
async function pageWhen(what: string, check: (page: string) => boolean): Promise<string> {
  return eventually(
    async () => {
      const page = await (await fetch(running.url)).text();
      if (!check(page)) throw new Error(`the page was: ${page.slice(0, 300)}`);
      return page;
    },
    { what, withinMs: 20_000, everyMs: 50 },
  );
}

test("a static extra section is rendered after Home's HTML, an interactive one is left out, and the browser is told of neither", async () => {
  const page = await pageWhen('the static extra in the page', (text) => text.includes('the quiet extra'));
  expect(page.indexOf('the home build')).toBeGreaterThan(-1);
  expect(page.indexOf('the quiet extra')).toBeGreaterThan(page.indexOf('the home build'));
  // Home's slot holds both: the panel after it (About's) begins after the extra.
  expect(page.indexOf('the quiet extra')).toBeLessThan(page.indexOf('data-section-island="about"'));
  expect(page).not.toContain('the lively extra');
  expect(page).not.toContain(extrasOrigin);
}, 30_000);

test('a Home that hydrates gets no extra in its panel: its island must find its own HTML alone', async () => {
  deployHome(site.root, '/* the lively home build */', { mode: 'interactive', when: ['load'] });
  // Granted script by the integrator: built in, Home is static whatever its build declares (issue 46), and gets the extra.
  const remotes = { home: `http://127.0.0.1:${running.ports[1]!}/mf-manifest.json` };
  writeFileSync(configPath, JSON.stringify({ ...COMPANY, remotes, sections: { home: { interactive: true } } }));
  const page = await pageWhen('the interactive Home in the page', (text) => text.includes('the lively home build'));
  expect(page).not.toContain('the quiet extra');
}, 30_000);
