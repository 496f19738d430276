import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SECTION_MANIFEST_PATH } from '@portico/contract/manifest-relay';
import { readScopedStylesheetAddress } from '@portico/contract/section-styles';
import type { Page } from '@playwright/test';
import { sampleConfig } from '@portico/testing/sample-config';
import { startFaultServer, type FaultServer } from '../support/fault-server';
import { expectHydrated } from '../support/page-clock';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig, type PorticoSite } from '../support/fixtures';
import { SECOND_BUILD_TEXT, secondBuildRoot } from '../support/second-build';
import { watchProblems } from '../support/page-problems';
import { REPO_ROOT } from '../support/paths';

// A `?remote.contact=` visit to the server-rendered site: the page is
// rendered on the server like any other, except the overridden section,
// which the browser loads from the override as before. The override is the
// Contact team's second build, on an origin of its own that counts every
// request it gets, so anything the server fetched from it would show.

const SLOT = 9;

const secondContactDist = async () => path.join(await secondBuildRoot(), 'remote-contact/dist');
const contactDist = () => path.join(REPO_ROOT, 'remote-contact/dist');

/** The node build's path, as the second build's manifest names it: only a server would ask for it. */
function nodeBuildPath(dist: string): string {
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as {
    metaData: { ssrRemoteEntry: { path: string; name: string } };
  };
  return `/${manifest.metaData.ssrRemoteEntry.path}/${manifest.metaData.ssrRemoteEntry.name}`;
}

/**
 * A server-rendered site whose Contact is the repository's build, served
 * from an origin that counts its requests, which may be overridden from the
 * second build's origin when `allowed`; the address of a visit that
 * overrides Contact with the second build, and a wait for two more rounds
 * of the server's manifest watcher (it polls the configured manifest every
 * second): anything the server would fetch of the override it has fetched
 * by then.
 */
async function withOverrideSite(
  parallelIndex: number,
  allowed: boolean,
  run: (site: PorticoSite, override: FaultServer, url: string, configured: FaultServer & { watcherRounds: () => Promise<void> }) => Promise<void>,
) {
  const [override, configured] = await Promise.all([startFaultServer(await secondContactDist()), startFaultServer(contactDist())]);
  const basePort = workerPorts(parallelIndex, SLOT);
  const site = await serve(
    basePort,
    writeConfig(basePort, { remotes: { ...siteRemotes(basePort), contact: configured.manifestUrl }, allowedRemoteOrigins: allowed ? [override.origin] : [] }),
  );
  const polls = () => configured.requests.filter((request) => request === '/mf-manifest.json').length;
  const watcherRounds = async () => {
    const before = polls();
    await expect.poll(polls, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 2);
  };
  try {
    await run(site, override, `${site.url}/?remote.contact=${encodeURIComponent(override.manifestUrl)}`, Object.assign(configured, { watcherRounds }));
  } finally {
    await Promise.all([site.close(), override.close(), configured.close()]);
  }
}

/** The paths the browser asked `origin` for. */
function browserRequests(page: Page, origin: string): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === origin) paths.push(url.pathname);
  });
  return paths;
}

/**
 * The manifest URLs the browser asked its page's origin to relay
 * (`/section-manifest/<id>?url=`, its CSP connecting nowhere else): each is
 * one request of the relay's to that manifest, on the browser's behalf.
 */
function relayedManifests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(SECTION_MANIFEST_PATH)) urls.push(url.searchParams.get('url') ?? '');
  });
  return urls;
}

/** The paths of the stylesheets the page asks its own origin to scope (issue 46): the server fetches each from the section's origin. */
function scopedStylesheets(page: Page, origin: string): Set<string> {
  const paths = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    const asked = readScopedStylesheetAddress(url.pathname, url.search);
    if (asked && new URL(asked.href).origin === origin) paths.add(new URL(asked.href).pathname);
  });
  return paths;
}

const overrideNotice = (page: Page) => page.getByRole('complementary', { name: 'Remote override' });

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a ?remote.contact= visit shows Home, About Us, the footer and the notice from the server, and Contact as left to the browser', async ({
    page,
  }, testInfo) => {
    await withOverrideSite(testInfo.parallelIndex, true, async (site, override, url, { watcherRounds }) => {
      const response = await page.goto(url);
      expect(await response?.text()).toContain('id="portico-page-data"');
      // The page's CSP lets the browser load the override, as the client-rendered page's does.
      expect(response?.headers()['content-security-policy']).toContain(override.origin);

      await expect(page.locator('html')).toHaveAttribute('lang', 'en-IN');
      await expect(page).toHaveTitle(sampleConfig.comName ?? '');
      await expect(page.locator('#home')).toContainText('A personal loan in three steps');
      await expect(page.locator('#about')).toContainText('Grievance redressal officer');
      await expect(page.locator('#contact')).toContainText('Loading Contact us…');
      await expect(page.locator('#contact label')).toHaveCount(0);
      await expect(overrideNotice(page)).toContainText(`the Contact us section comes from ${override.manifestUrl}`);
      await expect(page.getByRole('contentinfo')).toContainText(sampleConfig.address ?? '');

      await watcherRounds();
      // No script ran: whatever the override's origin was asked for, the server asked.
      expect(override.requests).toEqual([]);
    });
  });
});

test('a ?remote.contact= visit hydrates with no error and shows the override’s Contact; the server never requests the override', async ({ page }, testInfo) => {
  const problems = await watchProblems(page);
  // The heading as the server sent it: hydration keeps that element, a client render would replace it.
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') Object.assign(window, { serverHeading: document.querySelector('#home h2') });
    });
  });
  await withOverrideSite(testInfo.parallelIndex, true, async (_site, override, url, configured) => {
    const fromBrowser = browserRequests(page, override.origin);
    const configuredContact = browserRequests(page, configured.origin);
    const relayed = relayedManifests(page);
    const scoped = scopedStylesheets(page, override.origin);
    await page.goto(`${url}#contact`);

    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    await expect(contact.getByLabel(SECOND_BUILD_TEXT)).toBeVisible();
    await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
    await expect(overrideNotice(page)).toContainText(`the Contact us section comes from ${override.manifestUrl}`);
    await page.getByRole('tab', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { serverHeading: Element | null }).serverHeading === document.querySelector('#home h2'))).toBe(true);

    await configured.watcherRounds();
    // Every request the override's origin got was for the browser: its code
    // directly, its manifest through the page's origin (one relayed request,
    // one request there), each stylesheet the page asked the page's origin to
    // scope (fetched once, kept scoped); the server asked nothing of its own,
    // and nothing for its node build.
    expect(fromBrowser).toEqual(expect.arrayContaining(['/remoteEntry.js']));
    expect(relayed).toEqual(expect.arrayContaining([override.manifestUrl]));
    expect(relayed.every((url) => url === override.manifestUrl)).toBe(true);
    expect([...override.requests].sort()).toEqual([...fromBrowser, ...relayed.map(() => '/mf-manifest.json'), ...scoped].sort());
    expect(override.requests).not.toContain(nodeBuildPath(await secondContactDist()));
    // The configured Contact is replaced for this visit: the browser loads nothing of it, nor asks for its manifest.
    expect(configuredContact).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test('an override from an origin not allowed is refused on the server as in the browser: Contact is server-rendered, with no notice', async ({
  page,
}, testInfo) => {
  const problems = await watchProblems(page);
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await withOverrideSite(testInfo.parallelIndex, false, async (_site, override, url) => {
    const html = await (await fetch(url)).text();
    expect(html).toContain('>Send message</button>');
    expect(html).not.toContain('Remote override');

    // On Home, where no island ever starts, the console says why at load.
    const refusal = `Portico: refused the override remote.contact=${override.manifestUrl} because its origin ${override.origin} is not listed in config.json's allowedRemoteOrigins; the configured URL is used.`;
    await page.goto(url);
    await expect.poll(() => warnings).toContain(refusal);
    await expect(page.locator('[data-island-state]')).toHaveCount(0);

    // Once Contact's island starts, the refusal is not said a second time.
    await page.getByRole('tab', { name: 'Contact us' }).click();
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    await expect(contact.getByLabel('Message', { exact: true })).toBeVisible();
    await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
    await expect(overrideNotice(page)).toHaveCount(0);
    expect(override.requests).toEqual([]);
    expect(warnings.filter((warning) => warning === refusal)).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
