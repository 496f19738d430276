import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fault-lab';
import { rewriteManifest, startFaultServer, type FaultServer } from '../support/fault-server';

// What a browser does with the page's protection. Which spellings of the
// address are the page, and that every answer (the 404 included) carries the
// headers, is checked once, without a browser, in
// server/src/__tests__/request-answers.test.ts; here, that the browser
// honours them: the page, and a 404 for one of its spellings.
const FRAMED = ['/', '/INDEX.HTML'];

/** A page on another loopback origin that frames `src`, as a clickjacking site would. */
async function startFramer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/own') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<nav>Framer</nav>');
    const src = url.searchParams.get('src') ?? '';
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><iframe src="${src.replace(/"/g, '&quot;')}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function frame(page: Page, framer: string, src: string): Promise<void> {
  await page.goto(`${framer}/?src=${encodeURIComponent(src)}`);
  // The frame has finished: rendered, or replaced by the browser's error page.
  await page.waitForFunction(() => document.querySelector('iframe')?.contentWindow !== null);
  await page.waitForLoadState('load');
}

test.describe('a page that frames the site', () => {
  let framer: Awaited<ReturnType<typeof startFramer>>;
  test.beforeAll(async () => {
    framer = await startFramer();
  });
  test.afterAll(async () => {
    await framer.close();
  });

  test('can show a frame that allows it (the check below can see a framed page)', async ({ page }) => {
    await frame(page, framer.origin, `${framer.origin}/own`);
    await expect(page.frameLocator('iframe').getByRole('navigation')).toHaveText('Framer');
  });

  for (const variant of FRAMED) {
    test(`shows nothing of ${variant}`, async ({ page, site }) => {
      await frame(page, framer.origin, `${site.url}${variant}`);
      const framed = page.frameLocator('iframe');
      await expect(framed.getByRole('navigation')).toHaveCount(0);
      await expect(framed.getByRole('link', { name: 'Go to the home page' })).toHaveCount(0);
      expect(page.frames().some((child) => child.url().startsWith(site.url))).toBe(false);
    });
  }
});

test.describe('an override whose manifest sends the browser to an unlisted origin', () => {
  let unlisted: FaultServer;
  test.beforeAll(async () => {
    unlisted = await startFaultServer();
  });
  test.afterAll(async () => {
    await unlisted.close();
  });

  test('runs no script from there', async ({ page, lab }) => {
    // The override's origin is allowed; its manifest says the files are elsewhere.
    lab.configure({ allowedRemoteOrigins: [lab.faults.origin] });
    lab.faults.fault('/mf-manifest.json', {
      rewrite: rewriteManifest((manifest) => {
        (manifest as unknown as { metaData: { publicPath: string } }).metaData.publicPath = `${unlisted.origin}/`;
      }),
    });
    unlisted.clear();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (blocked: string) => violations.push(blocked));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation: (blocked: string) => void }).reportViolation(event.blockedURI),
      );
    });

    const response = await page.goto(`${lab.site.url}/?remote.contact=${encodeURIComponent(lab.faults.manifestUrl)}#contact`);
    expect(response?.status()).toBe(200);
    // The page tried, and the browser refused: the section fails in its place.
    await expect.poll(() => violations.some((blocked) => blocked.startsWith(unlisted.origin)), { timeout: 10_000 }).toBe(true);
    expect(unlisted.requests).toEqual([]);
  });
});
