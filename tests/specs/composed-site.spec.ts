import { expect, test } from '../support/fixtures';

test('the page composes three sections, each loaded from its own origin', async ({ page, site }) => {
  // The server-rendered page carries each manifest; each section's code comes from its own origin.
  const entries: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/remoteEntry.js') && response.ok()) entries.push(new URL(response.url()).origin);
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
  // The sections' code arrives as the page hydrates, after the server's HTML is already on screen.
  await expect.poll(() => [...entries].sort()).toEqual([site.origin(1), site.origin(2), site.origin(3)]);
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

test('the remotes use the host instance of shared-config: the config the page carries, its values in every section', async ({
  page,
  site,
}) => {
  const configReads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/config.json')) configReads.push(request.url());
  });
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'About Us' }).click();
  // About's text names the company from the config the host loaded; a second
  // shared-config instance would have no config and the section would fail.
  await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('Portico Credit offers');

  const instances = () => page.evaluate(() => {
    const share = (globalThis as { __FEDERATION__?: { __SHARE__?: Record<string, Record<string, Record<string, Record<string, { loaded?: boolean; from: string }>>>> } }).__FEDERATION__?.__SHARE__ ?? {};
    return Object.values(share).flatMap((scopes) =>
      Object.values(scopes.default?.['@portico/shared-config'] ?? {}).filter((entry) => entry.loaded).map((entry) => entry.from),
    );
  });
  // The server-rendered page carries config.json in its hydration data: no request for it at all.
  expect(configReads).toEqual([]);
  // The About text above is the server's; the shared instance is the one its hydration loaded.
  await expect.poll(async () => new Set(await instances())).toEqual(new Set(['portico_host']));
});

test('an unknown path answers 404', async ({ request, site }) => {
  for (const path of ['/nope', '/about', '/index', '/config.json/x']) {
    const response = await request.get(`${site.url}${path}`);
    expect(response.status(), path).toBe(404);
  }
  expect((await request.get(`${site.url}/index.html`)).status()).toBe(200);
});
