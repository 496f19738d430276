import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { sendWithBothToasts, serverStoresMessages, watchContactPosts } from '../support/contact-api';
import { startFaultServer } from '../support/fault-server';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig } from '../support/fixtures';
import { HOST_ENTRY } from '../support/host-scripts';
import { installClock } from '../support/page-clock';
import { watchProblems } from '../support/page-problems';
import { REPO_ROOT } from '../support/paths';

// Federated islands (contract/src/hydration.ts): Home and About are static,
// Contact is interactive when it is selected, scrolled near or first used.
// The server-rendered page runs its page script only; the host's script and a
// section's code come when an island needs them.

/** Every URL of `type` (script, stylesheet) the page requests, as it requests it. */
function watchRequests(page: Page, type: string): string[] {
  const urls: string[] = [];
  page.on('request', (request: Request) => {
    if (request.resourceType() === type) urls.push(request.url());
  });
  return urls;
}

const originOf = (manifestUrl: string) => new URL(manifestUrl).origin;

test('a visit to /: no code of Home or About, nor the host’s, until Contact is chosen; then the form works end to end (both toasts, the message stored)', async ({
  page,
  site,
}) => {
  const problems = await watchProblems(page);
  // This site serves no message store; contact-delivery.spec.ts posts to a real one.
  await serverStoresMessages(page);
  const scripts = watchRequests(page, 'script');
  const stylesheets = watchRequests(page, 'stylesheet');
  const remotes = siteRemotes(site.basePort);
  await installClock(page);
  await page.goto(site.url, { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  // Before any interaction no code runs but the page script (in the page
  // itself) and its small chunk that fetches the islands' code ahead, after
  // the first paint at the lowest priority (issue 50): fetched, not run.
  await expect(page.locator(`link[rel="prefetch"][href^="${originOf(remotes.contact)}/"]`).first()).toBeAttached();
  expect(scripts.map((url) => new URL(url).pathname)).toEqual([expect.stringMatching(/^\/page-script-[\w-]+\.[0-9a-f]{10}\.js$/)]);
  const ahead = await page.locator('link[rel="prefetch"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  expect(ahead.filter((url) => [originOf(remotes.home), originOf(remotes.about)].includes(new URL(url).origin))).toEqual([]);
  await expect(page.locator('body > script[data-src]')).toHaveCount(1);

  await page.getByRole('tab', { name: 'About Us' }).click();
  await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('Grievance redressal officer');
  await page.getByRole('tab', { name: 'Contact us' }).click();
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await expect(page.locator('[data-section-island="contact"]')).toHaveAttribute('data-island-state', 'hydrated');
  await sendWithBothToasts(page, contact);
  await page.clock.resume();
  await expect(contact).toContainText('Thank you, Asha. Your message has reached us');

  const fromHomeOrAbout = scripts.filter((url) => [originOf(remotes.home), originOf(remotes.about)].includes(new URL(url).origin));
  expect(fromHomeOrAbout).toEqual([]);
  expect(scripts.some((url) => new URL(url).origin === originOf(remotes.contact))).toBe(true);
  // Contact's stylesheet came with the page, from its origin; its hydration fetches no second copy from Contact's.
  expect(stylesheets.filter((url) => Object.values(remotes).map(originOf).includes(new URL(url).origin))).toEqual([]);
  expect(problems).toEqual([]);
});

test('typed before the form is hydrated, and Enter pressed: nothing lost, nothing in the address, and the message is sent once hydrated', async ({
  page,
  site,
}) => {
  const problems = await watchProblems(page);
  await serverStoresMessages(page);
  const posts = watchContactPosts(page);
  // The host's script held back until the fields are filled: the visitor is faster than the network.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(HOST_ENTRY, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${site.url}/#contact`, { waitUntil: 'domcontentloaded' });
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await contact.getByLabel('Name').pressSequentially('Budi');
  await contact.getByLabel('Telephone').fill('0812 3456 7890');
  await contact.getByLabel('Message').fill('Kapan?');
  await contact.getByLabel('Name').press('Enter');
  await expect(page.locator('[data-section-island="contact"]')).not.toHaveAttribute('data-island-state', 'hydrated');
  expect(new URL(page.url()).search).toBe('');
  release();
  await expect(contact).toContainText('Thank you, Budi. Your message has reached us');
  // Every letter typed before hydration was sent; delivered, the form is empty again.
  expect(posts.map((post) => [post.body.name, post.body.telephone, post.body.message])).toEqual([['Budi', '0812 3456 7890', 'Kapan?']]);
  await expect(contact.getByLabel('Message')).toHaveValue('');
  expect(new URL(page.url()).search).toBe('');
  expect(problems).toEqual([]);
});

test('a switch of language keeps the section and what was typed, the page coming from the server in the other language', async ({ page, site }) => {
  await page.goto(`${site.url}/#contact`);
  await page.getByLabel('Message').fill('Halo, saya mau tanya');
  await page.getByRole('link', { name: 'Bahasa Indonesia' }).click();
  await expect(page).toHaveURL(/\?type=2#contact$/);
  await expect(page.getByRole('tab', { name: 'Hubungi Kami' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Pesan')).toHaveValue('Halo, saya mau tanya');
  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
});

test('a static section the server could not render shows its alert: its browser code, granted no script, is never loaded (issue 46)', async ({
  page,
}, testInfo) => {
  const problems = await watchProblems(page);
  const aboutBuild = JSON.parse(readFileSync(path.join(REPO_ROOT, 'remote-about/dist/mf-manifest.json'), 'utf8')) as {
    metaData: { ssrRemoteEntry: { path: string; name: string } };
  };
  const faults = await startFaultServer(path.join(REPO_ROOT, 'remote-about/dist'));
  faults.fault(`/${aboutBuild.metaData.ssrRemoteEntry.path}/${aboutBuild.metaData.ssrRemoteEntry.name}`, {
    rewrite: (text: string) => `throw new Error('broken on the server');\n${text}`,
  });
  const basePort = workerPorts(testInfo.parallelIndex, 11);
  const configPath = writeConfig(basePort);
  writeConfig.rewrite(configPath, { remotes: { ...JSON.parse(readFileSync(configPath, 'utf8')).remotes, about: faults.manifestUrl } });
  const site = await serve(basePort, configPath);
  try {
    const html = await (await fetch(site.url)).text();
    expect(html).toContain('Loading About Us…');
    const scripts = watchRequests(page, 'script');
    await page.goto(`${site.url}/#about`);
    const about = page.getByRole('tabpanel', { name: 'About Us' });
    await expect(about.getByRole('alert')).toContainText('The About Us section could not be loaded.');
    expect(scripts.filter((url) => url.startsWith(originOf(faults.manifestUrl)))).toEqual([]);
    // Home, rendered by the server, still brings no code.
    expect(scripts.filter((url) => url.startsWith(originOf(siteRemotes(basePort).home)))).toEqual([]);
    await page.getByRole('tab', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
    // The loader's one report of the refusal, and nothing else.
    expect(problems).toEqual([expect.stringContaining('the integrator grants this section no script in the browser')]);
  } finally {
    await Promise.all([site.close(), faults.close()]);
  }
});

test('a visit to /#contact shows Contact selected from the first paint, before any script; the focus there draws no frame around the section', async ({
  page,
  site,
}) => {
  // No script at all: what the first paint shows is the HTML and CSS alone (the page script taken out of the page).
  await page.route(`${site.url}/`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/<script data-src="[^"]*">[\s\S]*?<\/script>/, '');
    const headers = response.headers();
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: response.status(), headers, body: html });
  });
  await page.goto(`${site.url}/#contact`);
  await expect(page.locator('script[data-src]')).toHaveCount(0);
  await expect(page.getByRole('tabpanel', { name: 'Contact us' })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: 'Home' })).toBeHidden();
  const contactTab = page.locator('#tab-contact');
  const homeTab = page.locator('#tab-home');
  expect(await contactTab.evaluate((tab) => getComputedStyle(tab).borderBottomColor)).not.toBe('rgba(0, 0, 0, 0)');
  expect(await homeTab.evaluate((tab) => getComputedStyle(tab).borderBottomColor)).toBe('rgba(0, 0, 0, 0)');

  await page.unrouteAll();
  await page.goto(`${site.url}/?type=2#about`);
  await page.locator('#about').focus();
  const outline = await page.locator('#about').evaluate((panel) => getComputedStyle(panel).outlineStyle);
  expect(outline).toBe('none');
});
