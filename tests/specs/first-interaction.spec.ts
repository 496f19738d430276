import type { Page } from '@playwright/test';
import { serverStoresMessages, watchContactPosts } from '../support/contact-api';
import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';
import { expectHydrated } from '../support/page-clock';
import { watchProblems } from '../support/page-problems';

// Issue 50's dead-click rule: a tap on Contact while its island's code is
// still on the network shows the server's form at once, a press on Send is
// held (the button says it is getting ready, its name unchanged) and sent
// once when the code is there, never lost and never twice; a fetch that
// fails gives the section's alert with Try again, the host's entry too (the
// page script's alert), a press held meanwhile then posting the form itself.

/** Contact's island script (`./section` for the islands' entry), the last script its island waits for. */
const CONTACT_CHUNK = /\/island\.[0-9a-f]+\.js$/;

/**
 * Until the server renders Contact into the page: a server just started may
 * answer the first pages with Contact left to the browser (its worker still
 * warming), and the rule is about the server's form.
 */
async function untilContactServerRendered(url: string): Promise<void> {
  await expect.poll(async () => (await fetch(url)).text(), { timeout: 30_000 }).toContain('>Send message</button>');
}

/**
 * The host's entry as the page names it to its page script (`data-src`):
 * whichever script the server names, the page script knows no other.
 */
async function hostEntryOf(url: string): Promise<string> {
  const named = /<script data-src="([^"]+)">/.exec(await (await fetch(url)).text())?.[1];
  expect(named, 'the page names its host entry').toBeDefined();
  return new URL(named!, url).pathname;
}

/** Holds every request for Contact's chunk until the returned release is called: a network slower than the visitor. */
async function holdContactChunk(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(CONTACT_CHUNK, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Opens Contact's tab and fills its server-rendered form (typing works before any of its code); returns the panel and its send button. */
async function fillContactAfterTap(page: Page, name: string, telephone: string, message: string) {
  await page.getByRole('tab', { name: 'Contact us' }).click();
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await contact.getByLabel('Name').fill(name);
  await contact.getByLabel('Telephone').fill(telephone);
  await contact.getByLabel('Message').fill(message);
  return { contact, send: contact.getByRole('button', { name: 'Send message' }) };
}

test('Send pressed twice while Contact’s code is on the network: the button says it is getting ready, and the message is sent once when the code arrives', async ({
  page,
  site,
}) => {
  // A server just started, then a held chunk: room for a busy machine.
  test.slow();
  const problems = await watchProblems(page);
  await serverStoresMessages(page);
  const posts = watchContactPosts(page);
  const release = await holdContactChunk(page);
  await untilContactServerRendered(site.url);
  await page.goto(site.url);

  // The server's form, at once: typing works before any of its code.
  const { contact, send } = await fillContactAfterTap(page, 'Wulan', '0812 1111 2222', 'Berapa bunganya?');
  await send.click();
  await expect(send).toHaveAttribute('aria-busy', 'true');
  await send.click();
  await expect(page.locator('[data-section-island="contact"]')).toHaveAttribute('data-island-state', 'requested');
  expect(posts).toEqual([]);

  release();
  await expect(contact).toContainText('Thank you, Wulan. Your message has reached us');
  await page.waitForLoadState('networkidle');
  expect(posts.map((post) => [post.body.name, post.body.telephone, post.body.message])).toEqual([['Wulan', '0812 1111 2222', 'Berapa bunganya?']]);
  await expect(send).not.toHaveAttribute('aria-busy', 'true');
  expect(new URL(page.url()).search).toBe('');
  expect(problems).toEqual([]);
});

/** Lighthouse's slow 4G, applied by the browser (not simulated): 562.5 ms round trips, 1.6 Mbit/s down and 750 kbit/s up, at 90 %. */
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8, uploadThroughput: (750 * 1024 * 0.9) / 8 };

test('on a throttled network (slow 4G), Send pressed right after the tap is held while the code arrives, then sent once: never a dead click', async ({
  page,
  site,
}) => {
  // A server just started, then everything at slow 4G: room for a busy machine.
  test.slow();
  const problems = await watchProblems(page);
  await serverStoresMessages(page);
  const posts = watchContactPosts(page);
  await untilContactServerRendered(site.url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await page.goto(site.url);

  // The islands' code is on the throttled network (two round trips of 562 ms at least): the server's form takes the press.
  const { contact, send } = await fillContactAfterTap(page, 'Dewi', '0812 3333 4444', 'Apakah bisa cicil?');
  await send.click();
  await expect(send).toHaveAttribute('aria-busy', 'true');

  await expect(contact).toContainText('Thank you, Dewi. Your message has reached us', { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(posts.map((post) => [post.body.name, post.body.telephone, post.body.message])).toEqual([['Dewi', '0812 3333 4444', 'Apakah bisa cicil?']]);
  expect(new URL(page.url()).search).toBe('');
  expect(problems).toEqual([]);
});

test('Contact’s code failing to arrive after a tap gives the section’s alert with Try again, which then brings the form', async ({ page, site }) => {
  let failing = true;
  await page.route(CONTACT_CHUNK, (route) => (failing ? route.abort('connectionreset') : route.continue()));
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'Contact us' }).click();
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  const alert = contact.getByRole('alert');
  // The loader's own retries come first; the alert is due within 10 s of the start.
  await expect(alert).toBeVisible({ timeout: 15_000 });
  failing = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(contact.getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(contact.getByRole('alert')).toHaveCount(0);
});

test('the host’s code failing to arrive: a Send held meanwhile is posted as without JavaScript, never a dead click', async ({ page, site }) => {
  test.slow();
  // The host's entry (the federation runtime, React): held, then refused, whether fetched ahead or after the tap.
  let refuse: () => void = () => undefined;
  const refused = new Promise<void>((resolve) => (refuse = resolve));
  await untilContactServerRendered(site.url);
  const entry = await hostEntryOf(site.url);
  await page.route(
    (url) => url.pathname === entry,
    async (route) => {
      await refused;
      await route.abort('connectionreset');
    },
  );
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'Contact us' }).click();
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await contact.getByLabel('Name').fill('Wulan');
  const send = contact.getByRole('button', { name: 'Send message' });
  await send.click();
  await expect(send).toHaveAttribute('aria-busy', 'true');

  const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/contact');
  refuse();
  // The form's own way without JavaScript (issue 49): the server answers it.
  expect(new URLSearchParams((await posted).postData() ?? '').get('name')).toBe('Wulan');
});

test('the host’s code refused, then let through: Contact shows the section’s alert with Try again, and after it the form sends', async ({ page, site }) => {
  // A server just started, a refused script, then the whole island: room for a busy machine.
  test.slow();
  const problems = await watchProblems(page);
  await serverStoresMessages(page);
  const posts = watchContactPosts(page);
  await untilContactServerRendered(site.url);
  const entry = await hostEntryOf(site.url);
  let refusing = true;
  const asked: boolean[] = [];
  await page.route(
    (url) => url.pathname === entry,
    async (route) => {
      asked.push(refusing);
      await (refusing ? route.abort('connectionreset') : route.continue());
    },
  );
  await page.goto(site.url);
  await page.getByRole('tab', { name: 'Contact us' }).click();
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  const alert = contact.getByRole('alert');
  await expect(alert).toContainText('The Contact us section could not be loaded.');
  // The server's form stays below it, typing works.
  await contact.getByLabel('Name').fill('Wulan');

  refusing = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(contact.getByRole('alert')).toHaveCount(0);
  const send = contact.getByRole('button', { name: 'Send message' });
  await expectHydrated(send);
  // Asked for again with the same URL (no query on the hashed file): the browser kept no failed answer.
  expect(asked).toContain(false);
  await expect(contact.getByLabel('Name')).toHaveValue('Wulan');
  await contact.getByLabel('Telephone').fill('0812 1111 2222');
  await contact.getByLabel('Message').fill('Berapa bunganya?');
  await send.click();
  await expect(contact).toContainText('Thank you, Wulan. Your message has reached us');
  expect(posts.map((post) => [post.body.name, post.body.telephone, post.body.message])).toEqual([['Wulan', '0812 1111 2222', 'Berapa bunganya?']]);
  expect(new URL(page.url()).search).toBe('');
  // The refused script (asked for and fetched ahead) is the console's only error: nothing else went wrong.
  expect(problems.filter((problem) => !problem.includes('net::ERR_CONNECTION_RESET'))).toEqual([]);
});

test('the islands start from the config the server read: its page data holds only the fields the server kept, no script fetched up to a working form carries the config’s parser (zod), and each script fetched ahead is run', async ({
  page,
}, testInfo) => {
  // A server of its own, started here: room for a busy machine.
  test.slow();
  const basePort = workerPorts(testInfo.parallelIndex, 11);
  // A colour that is not #rrggbb: the server's reading names it and leaves it out.
  const site = await serve(basePort, writeConfig(basePort, { theme: { primary: 'teal' } }));
  try {
    const scripts: Promise<string>[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response.text().catch(() => ''));
    });
    // Scripts fetched ahead (prefetches are of type "other"), and every script asked for once Contact is tapped (from the cache or not).
    const ahead = new Set<string>();
    const afterTap = new Set<string>();
    let tapped = false;
    page.on('request', (request) => {
      if (!new URL(request.url()).pathname.endsWith('.js')) return;
      if (tapped) afterTap.add(request.url());
      else if (request.resourceType() === 'other') ahead.add(request.url());
    });
    await untilContactServerRendered(site.url);
    await page.goto(site.url);
    const data = JSON.parse((await page.locator('script#portico-page-data').textContent()) ?? '{}') as { config: Record<string, unknown> };
    expect(data.config).toMatchObject({ comName: expect.any(String), remotes: { contact: expect.any(String) } });
    expect(data.config).not.toHaveProperty('theme');

    // The fetch ahead, when the page is idle after its first paint: the islands' entry, its texts, Contact's island script and its texts.
    await expect.poll(() => ahead.size, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    await page.waitForLoadState('networkidle');
    tapped = true;
    await page.getByRole('tab', { name: 'Contact us' }).click();
    await expectHydrated(page.getByRole('tabpanel', { name: 'Contact us' }).getByRole('button', { name: 'Send message' }));
    await page.waitForLoadState('networkidle');
    // Nothing is fetched ahead for nothing: checked to fail while the shared modules' fallbacks (never run) were listed.
    expect([...ahead].filter((url) => !afterTap.has(url))).toEqual([]);
    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    // Every section of this page has an island script: no Module Federation runtime is fetched or run for the form (issue 50).
    expect([...ahead, ...afterTap].filter((url) => /remoteEntry|\/main\./.test(url))).toEqual([]);
    expect(await page.evaluate(() => '__FEDERATION__' in globalThis)).toBe(false);
    // zod's schemas keep their internals under `_zod`, whatever the minifier does.
    expect(bodies.filter((body) => body.includes('_zod')).length).toBe(0);
  } finally {
    await site.close();
  }
});
