import { expect, test } from '../support/fixtures';

test('the page composes three sections, each from its own origin', async ({ page, site }) => {
  // Each section's HTML is rendered by its own build, and styled by its own stylesheet, which the
  // server fetched from the section's origin and answers from the page's, under its hash; only the
  // interactive section (Contact) brings code, from its origin, when chosen.
  const entries: string[] = [];
  const stylesheets: string[] = [];
  page.on('response', (response) => {
    // Its island script (a server-rendered page loads it without Module Federation), or its remoteEntry.js (a page a server just started sent to the browser to render).
    if (/\/(island\.[0-9a-f]{10}|remoteEntry)\.js$/.test(response.url()) && response.ok()) entries.push(new URL(response.url()).origin);
    if (new URL(response.url()).pathname.startsWith('/section-styles/') && response.ok()) stylesheets.push(response.url());
  });
  await page.goto(site.url);

  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  for (const [tab, heading] of [
    ['About Us', 'About Us'],
    ['Contact us', 'Contact us'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel', { name: tab }).getByRole('heading', { name: heading })).toBeVisible();
  }
  expect(stylesheets).toHaveLength(3);
  for (const url of stylesheets) expect(new URL(url).origin).toBe(site.url);
  // Fetched ahead, then run: one origin.
  await expect.poll(() => [...new Set(entries)].sort()).toEqual([site.origin(3)]);
});

test('choosing a tab shows its section alone and puts it in the address', async ({ page, site }) => {
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'Contact us' }).click();

  await expect(page.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Contact us' })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: 'Home' })).toBeHidden();
  await expect(page.getByRole('tabpanel', { name: 'About Us' })).toBeHidden();
  expect(new URL(page.url()).hash).toBe('#contact');

  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
});

test('a reload on #contact shows Contact us', async ({ page, site }) => {
  await page.goto(`${site.url}/#contact`);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Contact us' }).getByRole('button', { name: 'Send message' })).toBeVisible();
});

test('the remotes use the host instance of shared-config: the config the page carries, its values in every section', async ({ page, site }) => {
  const configReads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/config.json')) configReads.push(request.url());
  });
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'About Us' }).click();
  await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('Portico Credit offers');
  // Contact's privacy note names the company from the config the host holds; a second
  // shared-config instance would have no config and the section would fail.
  await page.getByRole('tab', { name: 'Contact us' }).click();
  await expect(page.locator('[data-section-island="contact"]')).toHaveAttribute('data-island-state', 'hydrated');

  // The server-rendered page carries config.json in its hydration data: no request for it at all.
  expect(configReads).toEqual([]);
  // The shared instance is the page's: Contact's island script takes it from the page (self.porticoShared), with no federation runtime to offer another.
  const shared = await page.evaluate(() => {
    const provided = (globalThis as { porticoShared?: Record<string, unknown> }).porticoShared ?? {};
    return { names: Object.keys(provided).sort(), federation: '__FEDERATION__' in globalThis };
  });
  expect(shared).toEqual({ names: ['@portico/shared-config', 'react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'], federation: false });
  await expect(page.getByRole('tabpanel', { name: 'Contact us' })).toContainText('Asha Rao (sample)');
});

test('an unknown path answers 404', async ({ request, site }) => {
  for (const path of ['/nope', '/about', '/index', '/config.json/x']) {
    const response = await request.get(`${site.url}${path}`);
    expect(response.status(), path).toBe(404);
  }
  expect((await request.get(`${site.url}/index.html`)).status()).toBe(200);
});
