import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import { builtHost } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { startPortico, type RunningPortico } from '../../portico-server';
import { SSR_LIMITS } from '../render-limits';
import { bigOutput, HostileCdn } from '@portico/testing/hostile-builds';

// A section team (or whoever holds its CDN) choosing large manifests and
// large HTML, and a visitor asking for many distinct pages (each a new
// override from an allowed origin: a query the page does not use would be
// the same page, query-flood.test.ts): what the server keeps stays within
// its documented budgets (SSR_LIMITS).

jest.setTimeout(180_000);

// A full collection on demand, so what is measured is what is kept, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retained = () => {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return (heapUsed + external) / 1024 / 1024;
};

const pageDataOf = (html: string) => parsePageData(new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html)?.[1]);

/** An origin allowed to override a section: the server never fetches what an override names. */
const OVERRIDES = 'https://override.example';

let cdn: HostileCdn;
let running: RunningPortico;
let folder: string;
beforeAll(async () => {
  cdn = await HostileCdn.start();
  folder = mkdtempSync(path.join(tmpdir(), 'portico-page-memory-'));
  const file = path.join(folder, 'config.json');
  const under = SSR_LIMITS.manifestInlineBytes - 8 * 1024;
  writeFileSync(
    file,
    JSON.stringify({
      ...sampleConfig,
      allowedRemoteOrigins: [OVERRIDES],
      remotes: {
        // Just under both caps: inlined, rendered, and cached with every page.
        home: cdn.publish('big-home', 'remote-home', bigOutput(SSR_LIMITS.sectionHtmlBytes - 32 * 1024), under),
        // Over the manifest cap (900 KB): neither inlined nor rendered here.
        about: cdn.publish('huge-manifest', 'remote-about', '', 900 * 1024),
        // Over the output cap (1 MB): refused, left to the browser.
        contact: cdn.publish('huge-output', 'remote-contact', bigOutput(1024 * 1024)),
      },
    }),
  );
  // A generous page budget: what is measured is memory, and a busy machine must not turn a page into the client-rendered one.
  running = await startPortico({ rootDir: builtHost(), basePort: 0, host: '127.0.0.1', configPath: file, log: silentLogger, ssr: { budgetMs: 10_000 } });
}, 300_000);
afterAll(async () => {
  await running.close();
  await cdn.close();
  rmSync(folder, { recursive: true, force: true });
});

test('a flood of distinct pages with sections at and over the caps: the pages keep coming, and what the server keeps stays within its budget', async () => {
  const first = await (await fetch(running.url)).text();
  expect(pageDataOf(first)?.rendered).toEqual(['home']);
  // Home is static and rendered: the browser never loads it, so its manifest stays out of the page.
  expect(Object.keys(pageDataOf(first)!.manifests)).toEqual(['contact']);

  const before = retained();
  const pages = 1000;
  let served = 0;
  let bytes = 0;
  const visit = async (index: number) => {
    const override = encodeURIComponent(`${OVERRIDES}/build-${index}/mf-manifest.json`);
    const response = await fetch(`${running.url}/?remote.contact=${override}`, { headers: { 'Accept-Encoding': 'identity' } });
    const html = await response.text();
    // Server-rendered, or (a render later than the page's budget) the client-rendered page: never an error.
    if (response.status === 200 && html.includes('<div id="root">')) served += 1;
    bytes += html.length;
  };
  for (let index = 0; index < pages; index += 15) await Promise.all(Array.from({ length: Math.min(15, pages - index) }, (_, offset) => visit(index + offset)));
  const growth = retained() - before;

  expect(served).toBe(pages);
  const budget = (SSR_LIMITS.pageCacheBytes + SSR_LIMITS.shellCacheBytes + SSR_LIMITS.sectionCacheBytes) / 1024 / 1024;
  // Without a bound the server would keep every one of these pages: over twice what its caches may hold.
  expect(bytes / 1024 / 1024).toBeGreaterThan(2 * (budget + 16));
  expect(growth).toBeLessThan(budget + 16);
  expect(running.renderWorker()!.cacheBytes / 1024 / 1024).toBeLessThanOrEqual(budget);
});
