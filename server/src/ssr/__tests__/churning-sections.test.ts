import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import { builtHost } from '@portico/testing/built-apps';
import { eventually } from '@portico/testing/eventually';
import { announce, HostileCdn, renderLog } from '@portico/testing/hostile-builds';
import { sampleConfig } from '@portico/testing/sample-config';
import { startPortico, type RunningPortico } from '../../portico-server';
import type { ServerRenderingOptions } from '../server-rendering';

// A section team whose manifest changes at every poll, and one whose CDN is
// slow, against the real server with the real host build and its sandboxed
// workers (issue 46: "A manifest that changes at every poll", "A slow Home
// delays other sections' redeploys"). The gate's rule alone, on a clock the
// test moves: manifest-churn.test.ts.

jest.setTimeout(180_000);

let cdn: HostileCdn;
let root: string;
beforeAll(async () => {
  root = builtHost();
  cdn = await HostileCdn.start();
}, 300_000);
afterAll(() => cdn.close());

/** A server whose config.json the test edits, as an operator would. */
async function serve(remotes: Record<string, string>, manifestChurn?: ServerRenderingOptions['manifestChurn']) {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-churn-'));
  const file = path.join(folder, 'config.json');
  const configure = (next: Record<string, string>) => writeFileSync(file, JSON.stringify({ ...sampleConfig, remotes: next }));
  configure(remotes);
  const log: string[] = [];
  // A generous page budget: a busy machine must not turn a page into the client-rendered one while a test reads it.
  const ssr = { budgetMs: 5000, manifestChurn };
  const running = await startPortico({ rootDir: root, basePort: 0, host: '127.0.0.1', configPath: file, log: linesLogger((line) => log.push(line)), ssr });
  return {
    running,
    log,
    configure,
    close: async () => {
      await running.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function page(running: RunningPortico, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}/`, { headers });
  const html = await response.text();
  const data = parsePageData(new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html)?.[1]);
  return { status: response.status, etag: response.headers.get('etag'), html, rendered: data?.rendered ?? [] };
}

describe('a Home manifest that changes at every poll', () => {
  const VARIANTS = 8;
  /** Held after 3 new versions (5 on a server): the test sees the hold sooner; a calm of 4 s (2 min) to see it lifted. */
  const churn = { versions: 3, calmMs: 4000 };
  let site: Awaited<ReturnType<typeof serve>>;
  let churning: string;
  beforeAll(async () => {
    for (let variant = 0; variant < VARIANTS; variant += 1) cdn.publish(`home-${variant}`, 'remote-home', announce(`home ${variant}`));
    churning = cdn.publish('churning-home', 'remote-home', announce('home first'));
    site = await serve(
      {
        home: churning,
        about: cdn.publish('about-counted', 'remote-about', renderLog('ABOUT HTML')),
        contact: cdn.publish('contact-counted', 'remote-contact', renderLog('CONTACT HTML')),
      },
      churn,
    );
  });
  afterAll(() => site.close());

  test('is held after the bound: no new worker per version past it, the cached pages and the other sections’ HTML kept; it is followed again once calm', async () => {
    await eventually(async () => expect((await page(site.running)).rendered).toEqual(['home', 'about', 'contact']), {
      what: 'every section rendered on the server',
      withinMs: 60_000,
    });
    const renders = () => site.log.filter((line) => line.endsWith('ABOUT HTML rendered') || line.endsWith('CONTACT HTML rendered')).length;
    const othersRendered = renders();
    // Their workers warmed each language, and say so: the count below is not of nothing.
    expect(othersRendered).toBeGreaterThanOrEqual(2);
    const polls = () => cdn.requests.filter((request) => request === '/churning-home/mf-manifest.json').length;
    // A new version at the same URL every 400 ms: every poll (each second) sees another.
    let next = 0;
    const rotation = setInterval(() => cdn.republish('churning-home', `home-${next++ % VARIANTS}`), 400);
    try {
      const held = await eventually(() => site.running.renderWorker()!.heldManifests[0] ?? false, { what: 'Home held', withinMs: 60_000 });
      expect(held).toMatchObject({ url: churning, sections: ['home'] });
      expect(site.log.join('\n')).toMatch(
        /the home section's manifest \S+\/churning-home\/mf-manifest.json changed more than 3 times within 10 min: it is held at the version served/,
      );
      // The last version followed goes live (it may still be starting), then nothing new starts.
      const home = () => site.running.renderWorker()!.sections.home;
      await eventually(() => home().generation !== undefined && home().builds.join() === home().wanted.join(), { what: 'Home settled', withinMs: 60_000 });
      const { generation, builds } = home();
      const first = await eventually(async () => {
        const served = await page(site.running);
        expect(served.rendered).toEqual(['home', 'about', 'contact']);
        return served;
      });
      const composed = site.running.renderWorker()!.composedPages;
      const pollsAtHold = polls();
      await eventually(() => polls() >= pollsAtHold + 4, { what: 'four more polls, each seeing a new version', withinMs: 60_000 });

      expect(home().generation).toBe(generation);
      expect(home().builds).toEqual(builds);
      expect(site.running.renderWorker()!.heldManifests[0]!.versionsSince).toBeGreaterThanOrEqual(4);
      // The page is the one kept: answered from the cache (304 to its ETag), not composed again.
      expect((await page(site.running, { 'If-None-Match': first.etag! })).status).toBe(304);
      expect(site.running.renderWorker()!.composedPages).toBe(composed);
      // Home's versions, followed and held, never had About or Contact rendered again.
      expect(renders()).toBe(othersRendered);
    } finally {
      clearInterval(rotation);
    }
    // Calm: followed again by itself, its latest version served.
    const latest = `home ${(next - 1) % VARIANTS}`;
    await eventually(() => site.running.renderWorker()!.heldManifests.length === 0, { what: 'the hold lifted', withinMs: 60_000 });
    expect(site.log.join('\n')).toMatch(/churning-home\/mf-manifest.json stayed unchanged for 4 s: no longer held, its latest version is served/);
    await eventually(() => site.log.some((line) => line.endsWith(`build ${latest} evaluated`)), { what: 'the latest version run', withinMs: 60_000 });
  });
});

describe('a slow Home CDN', () => {
  let site: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    site = await serve({
      home: cdn.publish('home-before', 'remote-home'),
      about: cdn.publish('about', 'remote-about'),
      contact: cdn.publish('contact-before', 'remote-contact', renderLog('CONTACT BEFORE')),
    });
  });
  afterAll(() => site.close());

  test("a new Contact build is rendered on the server before Home's new build, 4.5 s slow, has even answered", async () => {
    await eventually(async () => (await page(site.running)).html.includes('CONTACT BEFORE'), { what: 'the first Contact', withinMs: 60_000 });
    // Under the node build's 5 s limit: Home's build is fetched, late, not refused.
    const home = cdn.publish('home-slow', 'remote-home', announce('slow home'));
    let homeAnswered: number | undefined;
    void cdn.slow(cdn.nodeBuildPath('home-slow'), 4500).then((at) => (homeAnswered = at));
    // Both in one edit of config.json, as an activation of two sections would be.
    site.configure({ home, about: cdn.publish('about', 'remote-about'), contact: cdn.publish('contact-after', 'remote-contact', renderLog('CONTACT AFTER')) });
    await eventually(() => cdn.requests.includes(cdn.nodeBuildPath('home-slow')), { what: "Home's new build asked for", withinMs: 30_000 });
    await eventually(async () => (await page(site.running)).html.includes('CONTACT AFTER'), { what: 'the new Contact rendered', withinMs: 30_000 });
    const contactShown = performance.now();
    expect(homeAnswered).toBeUndefined();
    // Home's build is taken once it answers: the slow section is late, not lost.
    await eventually(() => site.log.some((line) => line.endsWith('build slow home evaluated')), { what: 'the slow Home run', withinMs: 60_000 });
    expect(homeAnswered).toBeGreaterThan(contactShown);
  });
});
