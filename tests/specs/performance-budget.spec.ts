import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectHydrated } from '../support/page-clock';
import { REPO_ROOT } from '../support/paths';

interface Budget {
  /** JavaScript bytes on the wire for a first visit to Home, as measured; see bench/README.md. */
  firstLoadJsBytes: number;
  /** How far above the recorded figure a change may go before this test fails. */
  tolerance: number;
}

/**
 * TCP's first window (10 segments of 1,460 B): what a server sends before
 * the visitor's first acknowledgement, and what Lighthouse simulates. A page
 * past it costs one more round trip before anything paints (150 ms on
 * Lighthouse's slow 4G): docs/performance.md#the-page-in-the-first-round-trip.
 */
const FIRST_WINDOW_BYTES = 10 * 1460;

const budget = JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench/budget.json'), 'utf8')) as Budget;

/**
 * Strings only the modules of @portico/toolkit contain, one per module. The
 * toolkit is a package of its own, bundled by whoever imports it; the host
 * imports only its service-worker helper, in a chunk of its own after the
 * page has rendered.
 */
const TOOLKIT_MARKERS = {
  http: 'X-App-Token',
  format: 'yyyy-MM-dd HH:mm:ss',
  cookies: '9999-12-31T23:59:59Z',
  routes: '/dragonpayPaymentInstructions',
  inputs: 'cc-number',
};

/** The sources of one toolkit module, tests left out. */
function toolkitSources(module: string): string {
  const folder = path.join(REPO_ROOT, 'toolkit/src', module);
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.includes('__tests__'))
    .map((file) => readFileSync(path.join(folder, file), 'utf8'))
    .join('\n');
}

test('each toolkit marker is in its module, so its absence from the first load means something', () => {
  for (const [module, marker] of Object.entries(TOOLKIT_MARKERS)) {
    expect(toolkitSources(module).includes(marker), `${marker} in toolkit/src/${module}`).toBe(true);
  }
});

test('a first visit loads no more JavaScript than the recorded budget allows', async ({ page, site }) => {
  const scripts: Request[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') scripts.push(request);
  });
  await page.goto(site.url);
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  await page.getByRole('tab', { name: 'Contact us' }).click();
  // Contact's island hydrated: its code, React and the federation runtime are in.
  await expectHydrated(page.getByRole('button', { name: 'Send message' }));
  await page.waitForLoadState('networkidle');

  // Body bytes as they travelled, i.e. compressed when the server compressed them.
  const sizes = await Promise.all(scripts.map(async (request) => (await request.sizes()).responseBodySize));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const limit = Math.round(budget.firstLoadJsBytes * (1 + budget.tolerance));
  test.info().annotations.push({ type: 'first-load JavaScript', description: `${total} B (budget ${budget.firstLoadJsBytes} B, limit ${limit} B)` });
  process.stdout.write(`first-load JavaScript: ${total} B over ${scripts.length} files (budget ${budget.firstLoadJsBytes} B, limit ${limit} B)\n`);
  expect(total, `first-load JavaScript: ${total} B over ${scripts.length} files`).toBeLessThanOrEqual(limit);

  const bodies = await Promise.all(scripts.map(async (request) => (await (await request.response())?.text()) ?? ''));
  for (const [module, marker] of Object.entries(TOOLKIT_MARKERS)) {
    expect(
      bodies.some((body) => body.includes(marker)),
      `@portico/toolkit/${module} is in the first load`,
    ).toBe(false);
  }
});

test("the server-rendered page, English and Indonesian, arrives with its headers in TCP's first window once the server keeps it", async ({ browser, site }) => {
  for (const address of [site.url, `${site.url}?type=2`]) {
    // The first visitors get it compressed fast, within the page's budget; the smallest brotli is made for the visitors after.
    let sent = '';
    await expect
      .poll(
        async () => {
          // A new visitor each time: nothing cached, nothing revalidated.
          const context = await browser.newContext();
          try {
            const response = (await (await context.newPage()).goto(address))!;
            const { responseHeadersSize, responseBodySize } = await response.request().sizes();
            sent = `${responseHeadersSize} B of headers and ${responseBodySize} B of ${await response.headerValue('content-encoding')}`;
            // The server-rendered page, not the client-rendered one a page past its budget would be.
            expect(response.status()).toBe(200);
            expect(await response.text()).toContain('data-section-island="contact"');
            return responseHeadersSize + responseBodySize;
          } finally {
            await context.close();
          }
        },
        { timeout: 10_000, message: `${address} within the first window` },
      )
      .toBeLessThanOrEqual(FIRST_WINDOW_BYTES);
    process.stdout.write(`${address}: ${sent}\n`);
  }
});
