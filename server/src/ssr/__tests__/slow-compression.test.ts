import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import { builtHost } from '@portico/testing/built-apps';
import { HostileCdn } from '@portico/testing/hostile-builds';
import { sampleConfig } from '@portico/testing/sample-config';
import { sectionsAtTheCap } from './sections-at-cap';
import { startPortico, type RunningPortico } from '../../portico-server';

// The page budget covers the whole page, not only the wait for the workers
// (issue 34, finding 6): here compression is made slow, as on a machine
// that has no time to spare (2 ms per KB: two sections at the HTML cap make
// a page of over a second), and every page is made afresh (PORTICO_SSR_CACHE=0).
// Each answer still comes within the budget: the big sections are left to
// the browser once the server has measured what they cost, and a page whose
// compression is still under way at the deadline is answered with the
// client-rendered page. The whole page's compression alone is past the
// budget and its slack; Contact's page (about 40 KB) well within it.

const MS_PER_KB = 2;
jest.mock('../page-answer', () => {
  const actual = jest.requireActual<typeof import('../page-answer')>('../page-answer');
  return {
    ...actual,
    compressPage: (html: Buffer, encoding: Parameters<typeof actual.compressPage>[1]) =>
      // Unref'd: a compression still waiting when the tests end must not hold the worker's exit.
      new Promise((resolve) => setTimeout(resolve, (html.length / 1024) * MS_PER_KB).unref()).then(() => actual.compressPage(html, encoding)),
  };
});

jest.setTimeout(120_000);

const BUDGET_MS = 400;
/** What a busy machine may add to an answer beyond the server's own budget (the test's fetch, the event loop): well short of a big page's compression. */
const SLACK_MS = 900;

let cdn: HostileCdn;
let running: RunningPortico;
let folder: string;
const log: string[] = [];
beforeAll(async () => {
  cdn = await HostileCdn.start();
  folder = mkdtempSync(path.join(tmpdir(), 'portico-slow-compression-'));
  const file = path.join(folder, 'config.json');
  const remotes = sectionsAtTheCap(cdn);
  writeFileSync(file, JSON.stringify({ ...sampleConfig, remotes }));
  running = await startPortico({
    rootDir: builtHost(),
    basePort: 0,
    host: '127.0.0.1',
    configPath: file,
    log: linesLogger((line) => log.push(line)),
    ssr: { budgetMs: BUDGET_MS, cache: false },
  });
}, 300_000);
afterAll(async () => {
  await running.close();
  await cdn.close();
  rmSync(folder, { recursive: true, force: true });
});

test('compression slower than the budget: every answer within it; the sections that would pass it are left to the browser, the rest of the page is server-rendered', async () => {
  const answers: { ms: number; rendered: string[] | undefined }[] = [];
  const leftToTheBrowser = (section: string) =>
    `the ${section} section is rendered in the browser on some pages: with it, a page takes longer than its budget (${BUDGET_MS} ms) to compose and compress now`;
  // Until Contact is server-rendered and both big sections were measured and left out: on a busy machine a
  // section's worker may miss the first pages' deadlines, and a section not yet in a page is not yet measured.
  const settled = () => answers.at(-1)?.rendered?.includes('contact') && ['home', 'about'].every((section) => log.includes(leftToTheBrowser(section)));
  while (answers.length < 60 && !settled()) {
    const started = performance.now();
    const html = await (await fetch(running.url, { headers: { 'Accept-Encoding': 'br' } })).text();
    answers.push({
      ms: performance.now() - started,
      rendered: parsePageData(new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html)?.[1])?.rendered,
    });
  }
  expect(answers.filter(({ ms }) => ms > BUDGET_MS + SLACK_MS)).toEqual([]);
  // Until it measured a compression, the server guessed it would fit: the answer at the deadline was the client-rendered page.
  expect(answers[0]!.rendered).toBeUndefined();
  // Then: Contact and the page around it, server-rendered; Home and About (250 KB each) in the browser.
  expect(answers.at(-1)!.rendered).toEqual(['contact']);
  for (const section of ['home', 'about']) expect(log).toContainEqual(leftToTheBrowser(section));
});
