import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { inMarket, parseConfig } from '@portico/shared-config/config';
import { sampleConfig } from '@portico/testing/sample-config';
import { serverStoresMessages } from '../support/contact-api';
import { startFaultServer, type Fault } from '../support/fault-server';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig } from '../support/fixtures';
import { installClock, stopClock, expectHydrated } from '../support/page-clock';
import { REPO_ROOT } from '../support/paths';
import { copyDists, redeploy, SECOND_BUILD_TEXT, secondBuildRoot } from '../support/second-build';
import { serveUnderPath } from '../support/static-server';
import { watchProblems } from '../support/page-problems';

// The composed page as the server renders it (server/src/ssr/, host/src/workers/),
// and the browser hydrating it.

/** The page's HTML as the server sends it, before any script runs. */
async function pageHtml(url: string): Promise<string> {
  return (await fetch(url)).text();
}

/** The node build's path on a remote's origin, as its manifest names it. */
function nodeBuildPath(app: string): string {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, app, 'dist/mf-manifest.json'), 'utf8')) as {
    metaData: { ssrRemoteEntry: { path: string; name: string } };
  };
  return `/${manifest.metaData.ssrRemoteEntry.path}/${manifest.metaData.ssrRemoteEntry.name}`;
}

const CONTACT_RENDERED = '>Send message</button>';
const CONTACT_LEFT_TO_BROWSER = 'Loading Contact us…';

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  for (const [search, language] of [
    [
      '',
      {
        lang: 'en-IN',
        market: 'IN',
        home: 'A personal loan in three steps',
        step: 'Complete certification',
        about: 'Grievance redressal officer',
        label: 'Telephone',
        footer: 'Company Name',
      },
    ],
    [
      '?type=2',
      {
        lang: 'id',
        market: 'ID',
        home: 'Pinjaman pribadi dalam tiga langkah',
        step: 'Lengkapi verifikasi',
        about: 'Petugas penanganan pengaduan',
        label: 'Nomor telepon',
        footer: 'Nama Perusahaan',
      },
    ],
  ] as const) {
    test(`the server-rendered page ${search || '/'} shows every section and the footer from the served config`, async ({ page, site }) => {
      await page.goto(`${site.url}/${search}`);
      await expect(page).toHaveTitle(sampleConfig.comName ?? '');
      await expect(page.locator('html')).toHaveAttribute('lang', language.lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(sampleConfig.comName ?? '');
      await expect(page.locator('#home')).toContainText(language.home);
      await expect(page.locator('#home')).toContainText(language.step);
      // The About Us and Contact panels are in the page, not yet shown as tabs without a script.
      await expect(page.locator('#about')).toContainText(language.about);
      await expect(page.locator('#about')).toContainText(sampleConfig.legal![language.market]!.companyName);
      await expect(page.locator('#contact label', { hasText: language.label })).toHaveCount(1);
      // Without a script the form posts itself to the server, form-encoded, never in the address (no-javascript-form.spec.ts).
      await expect(page.locator('#contact button[type="submit"]')).toBeEnabled();
      await expect(page.locator('#contact form')).toHaveAttribute('method', 'post');
      // Each section's own stylesheet is linked from the head, so the first paint is styled (no shift when its code lands).
      await expect(page.locator('#home ol').first()).toHaveCSS('display', 'grid');
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText(language.footer);
      // The market's own details where the served config.json gives them (its byMarket), else the top-level ones.
      const served = inMarket(parseConfig(await (await fetch(`${site.url}/config.json`)).json()).config, language.lang === 'id' ? 'id' : 'en');
      for (const value of [served.email!, served.address!, served.copyright!]) await expect(footer).toContainText(value);
    });
  }
});

test('the server-rendered page is painted before its script runs, and nothing on it shifts as it hydrates', async ({ page, site }) => {
  await page.addInitScript(() => {
    const seen = { scriptRan: Number.NaN, shift: 0 };
    Object.assign(window, { seen });
    // The entry script's first act is to read its chunk list: the moment it runs.
    let chunks: unknown;
    Object.defineProperty(window, 'webpackChunkportico_host_islands', {
      configurable: true,
      get() {
        if (Number.isNaN(seen.scriptRan)) seen.scriptRan = performance.now();
        return chunks;
      },
      set(value) {
        chunks = value;
      },
    });
    new PerformanceObserver((list) => {
      // What moves right after a tap (the tab's scroll) is not a shift (hadRecentInput), as CLS counts it.
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) seen.shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'Contact us' }).click();
  await expect(page.locator('[data-section-island="contact"]')).toHaveAttribute('data-island-state', 'hydrated');
  const { scriptRan, firstPaint, shift } = await page.evaluate(() => ({
    ...(window as unknown as { seen: { scriptRan: number; shift: number } }).seen,
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  }));
  // The host's script runs only when an island needs it, and never before the first paint.
  expect(firstPaint).toBeLessThan(scriptRan);
  expect(shift).toBe(0);
});

test("the first paint waits for the first panel's stylesheets alone: the hidden panels' are linked in the body, before their content", async ({
  page,
  site,
}) => {
  const html = await pageHtml(site.url);
  const linked = (part: string) => [...part.matchAll(/<link rel="stylesheet" href="(\/section-styles\/[^"]+)"/g)].map((match) => match[1]!);
  const [head, body] = html.split('</head>') as [string, string];
  expect(linked(head)).toHaveLength(1);
  const hidden = linked(body);
  expect(hidden).toHaveLength(2);
  // About's and Contact's stylesheets never arrive until the test lets them.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => hidden.includes(url.pathname + url.search),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  await page.goto(site.url, { waitUntil: 'commit' });
  // Home is painted meanwhile (in the head, they would hold back every paint: no first-contentful-paint at all).
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length), { timeout: 15_000 }).toBe(1);
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  release();
  await page.getByRole('tab', { name: 'Contact us' }).click();
  await expect(page.locator('[data-section-island="contact"]')).toHaveAttribute('data-island-state', 'hydrated');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
});

test('a normal visit hydrates the server-rendered page with no error; tabs, language switch and the contact form work', async ({ page, site }) => {
  const problems = await watchProblems(page);
  // The heading as the server sent it: hydration keeps that element, a client render would replace it.
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') Object.assign(window, { serverHeading: document.querySelector('#home h2') });
    });
  });
  // On a busy machine the first page may pass its budget and be the client-rendered one (as it should): the next, its parts warm and cached, is the server's.
  await expect.poll(async () => pageHtml(site.url), { timeout: 15_000 }).toContain('A personal loan in three steps');
  // This site serves no message store; contact-delivery.spec.ts posts to a real one.
  await serverStoresMessages(page);
  await installClock(page);
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'Contact us' }).click();
  await page.getByLabel('Name').fill('Asha');
  await page.getByLabel('Telephone').fill('+91 98765 43210');
  await page.getByLabel('Message').fill('When can I apply?');
  // Stopped while the 1 s toast is looked at, then on again.
  await stopClock(page, page.getByRole('button', { name: 'Send message' }));
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status')).toHaveText('Submit successfully！');
  await page.clock.resume();
  expect(await page.evaluate(() => (window as unknown as { serverHeading: Element }).serverHeading === document.querySelector('#home h2'))).toBe(true);

  await page.getByRole('link', { name: 'Bahasa Indonesia' }).click();
  await expect(page.getByRole('tab', { name: 'Hubungi Kami' })).toHaveAttribute('aria-selected', 'true');
  // What was sent is not offered again in the other language.
  await expect(page.getByLabel('Nomor telepon')).toHaveValue('');
  await page.getByRole('tab', { name: 'Tentang Kami' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Tentang Kami' })).toContainText('Petugas penanganan pengaduan');
  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
  expect(problems).toEqual([]);
});

test('a visit to a section by its hash hydrates with Home, then shows that section', async ({ page, site }) => {
  const problems = await watchProblems(page);
  await page.goto(`${site.url}/?type=2#about`);
  await expect(page.getByRole('tabpanel', { name: 'Tentang Kami' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'English' })).toHaveAttribute('href', '/?type=1#about');
  expect(problems).toEqual([]);
});

test('CSP: a full visit of the server-rendered page violates nothing', async ({ page, site }) => {
  const problems = await watchProblems(page);
  const response = await page.goto(site.url);
  // The one inline script, the page script, is allowed by the hash of its exact bytes; nothing else inline.
  const html = (await response?.text()) ?? '';
  expect(html).toContain('type="application/json" id="portico-page-data"');
  const inline = /<script data-src="[^"]*">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const hash = createHash('sha256').update(inline).digest('base64');
  expect(response?.headers()['content-security-policy']).toContain(`script-src 'sha256-${hash}' 'self'`);
  expect(html.match(/<script(?![^>]*\s(?:src|type)=)[^>]*>/g)).toEqual([expect.stringMatching(/^<script data-src="islands\.[0-9a-f]{10}\.js">$/)]);
  for (const tab of ['About Us', 'Contact us', 'Home']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel', { name: tab }).getByRole('heading', { level: 2 }).first()).toBeVisible();
  }
  await page.getByRole('link', { name: 'Bahasa Indonesia' }).click();
  await expect(page.getByRole('tab', { name: 'Beranda' })).toBeVisible();
  expect(problems).toEqual([]);
});

/** The operator's colours, and how a browser reports them. */
const THEME = { background: '#fbf9f4', text: '#222222', primary: '#6b2d5c' };
const THEMED = { primary: 'rgb(107, 45, 92)', background: 'rgb(251, 249, 244)' };

/** A site serving a config.json with THEME (port slot 11), server-rendered. */
async function withThemedSite(parallelIndex: number, run: (url: string) => Promise<void>) {
  const basePort = workerPorts(parallelIndex, 11);
  const site = await serve(basePort, writeConfig(basePort, { theme: THEME }));
  try {
    await run(site.url);
  } finally {
    await site.close();
  }
}

test.describe("the operator's theme in the server-rendered page", () => {
  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test("the first paint has the operator's colours, from a stylesheet the page links by its version", async ({ page }, testInfo) => {
      await withThemedSite(testInfo.parallelIndex, async (url) => {
        await page.goto(url);
        await expect(page.getByRole('link', { name: 'Skip to content' })).toHaveCSS('background-color', THEMED.primary);
        await expect(page.locator('body')).toHaveCSS('background-color', THEMED.background);
        await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', THEME.primary);
        // No script ran: the colours came from the server's stylesheet, not from applyTheme.
        expect(await page.locator('html').getAttribute('style')).toBeNull();
        const href = await page.locator('link[rel="stylesheet"][href^="/theme.css?v="]').getAttribute('href');
        const stylesheet = await fetch(`${url}${href!}`);
        expect(stylesheet.headers.get('cache-control')).toContain('immutable');
        expect(await stylesheet.text()).toContain(`--color-primary:${THEME.primary}`);
      });
    });

    test('without a theme in config.json the page links no theme stylesheet', async ({ page, site }) => {
      await page.goto(site.url);
      await expect(page.locator('link[href^="/theme.css"]')).toHaveCount(0);
      await expect(page.locator('meta[name="theme-color"]')).toHaveCount(1);
    });
  });

  test('with JavaScript on: the same colours after hydration, no CSP violation, no error', async ({ page }, testInfo) => {
    const problems = await watchProblems(page);
    await withThemedSite(testInfo.parallelIndex, async (url) => {
      await page.goto(`${url}/#contact`);
      const send = page.getByRole('button', { name: 'Send message' });
      await expectHydrated(send);
      await expect(send).toHaveCSS('background-color', THEMED.primary);
      await expect(page.locator('body')).toHaveCSS('background-color', THEMED.background);
      await page.getByRole('tab', { name: 'Home' }).click();
      await expect(page.getByRole('tabpanel', { name: 'Home' })).toBeVisible();
      expect(problems).toEqual([]);
    });
  });
});

test.describe('a section the server cannot render is left to the browser', () => {
  const nodeBuild = nodeBuildPath('remote-contact');

  /**
   * A site whose Contact comes from a fault server with `fault` in place
   * from the start, server-rendered; `changes` go into its config.json.
   */
  async function withFaultySite(
    slot: number,
    parallelIndex: number,
    fault: Fault | undefined,
    changes: Record<string, unknown>,
    run: (url: string) => Promise<void>,
  ) {
    const faults = await startFaultServer();
    if (fault) faults.fault(nodeBuild, fault);
    const basePort = workerPorts(parallelIndex, slot);
    const configPath = writeConfig(basePort, changes);
    writeConfig.rewrite(configPath, { remotes: { ...JSON.parse(readFileSync(configPath, 'utf8')).remotes, contact: faults.manifestUrl } });
    const site = await serve(basePort, configPath);
    try {
      await run(site.url);
    } finally {
      await Promise.all([site.close(), faults.close()]);
    }
  }

  async function expectLeftToBrowser(page: Page, url: string, problems: string[], browserShows: 'form' | 'alert') {
    const html = await pageHtml(url);
    expect(html).toContain(CONTACT_LEFT_TO_BROWSER);
    expect(html).toContain('A personal loan in three steps');
    expect(html).toContain('Company Name');
    // How soon is the server's page budget (server/src/ssr/__tests__/hostile-sections.test.ts); here, what the visitor gets.
    await page.goto(`${url}/#contact`, { waitUntil: 'domcontentloaded' });
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    if (browserShows === 'form') await expect(contact.getByRole('button', { name: 'Send message' })).toBeVisible();
    else await expect(contact.getByRole('alert')).toContainText('The Contact us section could not be loaded.');
    await expect(page.getByRole('tab', { name: 'Home' })).toBeVisible();
    if (browserShows === 'form') expect(problems).toEqual([]);
  }

  test('a node build that throws as it loads', async ({ page }, testInfo) => {
    const problems = await watchProblems(page);
    const fault = { rewrite: (text: string) => `throw new Error('broken on the server');\n${text}` };
    await withFaultySite(18, testInfo.parallelIndex, fault, {}, (url) => expectLeftToBrowser(page, url, problems, 'form'));
  });

  test('a node build that never arrives', async ({ page }, testInfo) => {
    const problems = await watchProblems(page);
    await withFaultySite(18, testInfo.parallelIndex, { hang: true }, {}, (url) => expectLeftToBrowser(page, url, problems, 'form'));
  });

  test('a tampered node build (not the hash its manifest gives) is refused on the server; the browser loads its own build', async ({ page }, testInfo) => {
    const problems = await watchProblems(page);
    const fault = { body: 'module.exports = { tampered: true };', contentType: 'text/javascript' };
    await withFaultySite(18, testInfo.parallelIndex, fault, {}, (url) => expectLeftToBrowser(page, url, problems, 'form'));
  });

  test('a manifest that does not match its pin is refused on the server, and by the browser as before', async ({ page }, testInfo) => {
    const problems = await watchProblems(page);
    const pinned = { remoteIntegrity: { contact: `sha384-${'A'.repeat(64)}` } };
    await withFaultySite(18, testInfo.parallelIndex, undefined, pinned, (url) => expectLeftToBrowser(page, url, problems, 'alert'));
  });
});

test('a killed render worker: the next visitors get the client-rendered page at once, and a new worker takes over', async ({ page }, testInfo) => {
  const site = await serve(workerPorts(testInfo.parallelIndex, 15));
  try {
    const before = site.renderWorker();
    expect(before?.pid).toBeDefined();
    process.kill(before!.pid!, 'SIGKILL');
    // That the page arrives while workers die is checked in server/src/ssr/__tests__/hostile-sections.test.ts; here, what the visitor gets.
    await page.goto(site.url, { waitUntil: 'domcontentloaded' });
    // Client-rendered, Home (granted no script, issue 46) shows its alert; rendered by the new worker already, its content.
    const home = page.getByRole('tabpanel', { name: 'Home' });
    await expect(home.getByRole('heading', { name: 'A personal loan in three steps' }).or(home.getByRole('alert'))).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('tab', { name: 'Contact us' })).toBeVisible();
    await expect.poll(async () => pageHtml(site.url), { timeout: 10_000 }).toContain('A personal loan in three steps');
    expect(site.renderWorker()?.generation).toBeGreaterThan(before!.generation!);
  } finally {
    await site.close();
  }
});

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
test('a swap in config.json and a redeploy of a remote: the server-rendered page shows the new section', async ({}, testInfo) => {
  const root = copyDists();
  // The render worker is built beside the host's dist/.
  cpSync(path.join(REPO_ROOT, 'host/dist-node'), path.join(root, 'host/dist-node'), { recursive: true });
  const basePort = workerPorts(testInfo.parallelIndex, 16);
  const configPath = writeConfig(basePort);
  const site = await serve(basePort, configPath, root);
  const v2 = await serveUnderPath(path.join(await secondBuildRoot(), 'remote-contact/dist'), '/contact/v2/', workerPorts(testInfo.parallelIndex, 17));
  try {
    expect(await pageHtml(site.url)).toContain(CONTACT_RENDERED);
    expect(await pageHtml(site.url)).not.toContain(SECOND_BUILD_TEXT);

    // The swap: config.json names the second build, served elsewhere.
    const remotes = siteRemotes(basePort);
    writeConfig.rewrite(configPath, { remotes: { ...remotes, contact: `${v2.url}mf-manifest.json` } });
    await expect.poll(async () => pageHtml(site.url), { timeout: 10_000 }).toContain(SECOND_BUILD_TEXT);

    // And back; then the redeploy: the second build copied over the one the site serves.
    writeConfig.rewrite(configPath, { remotes });
    await expect.poll(async () => pageHtml(site.url), { timeout: 10_000 }).not.toContain(SECOND_BUILD_TEXT);
    redeploy(root, 'contact', await secondBuildRoot());
    await expect.poll(async () => pageHtml(site.url), { timeout: 10_000 }).toContain(SECOND_BUILD_TEXT);
  } finally {
    await Promise.all([site.close(), v2.close()]);
    rmSync(root, { recursive: true, force: true });
  }
});
