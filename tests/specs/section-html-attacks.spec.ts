import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import { sampleConfig } from '@portico/testing/sample-config';
import { codePoint, extraHtml, HostileCdn, nameSpaceEscape, NON_HTML_SPACES, type ExtraElement } from '@portico/testing/hostile-builds';
import type { Page } from '@playwright/test';
import { serverStoresMessages, watchContactPosts } from '../support/contact-api';
import { expect, serve, test, workerPorts, writeConfig, type PorticoSite } from '../support/fixtures';
import { expectHydrated } from '../support/page-clock';
import { watchProblems } from '../support/page-problems';

// Home's node build, in an attacker's hands, renders HTML that reaches for
// the page's own parts (issue 34, findings 1 to 3): the page data, the
// bundlers' globals, Contact's island and its fixed ids. The server refuses
// that HTML (server/src/ssr/section-html.ts; the page's own lookups are
// tested without a browser in host/src/page-script/__tests__), and the
// visitor's page, its data and the other sections are as the operator
// configured them: About's officer is the config's, the tabs work, Contact
// is hydrated from the server's HTML and its Send posts.

const SLOT = 5;
const OFFICER = sampleConfig.legal!.IN!.grievanceOfficer!.name!;
const ATTACKER = 'Mallory, the attacker’s officer';

let cdn: HostileCdn;
test.beforeAll(async () => {
  cdn = await HostileCdn.start();
});
test.afterAll(async () => {
  await cdn.close();
});

/** A site whose Home renders `extra` after its own HTML; About and Contact are their real builds, from the same CDN. */
async function siteWithHome(
  parallelIndex: number,
  variant: string,
  extra: (remotes: Record<string, string>) => ExtraElement[],
): Promise<PorticoSite & { close(): Promise<void> }> {
  const remotes: Record<string, string> = { about: cdn.publish('about', 'remote-about'), contact: cdn.publish('contact', 'remote-contact') };
  remotes.home = cdn.publish(variant, 'remote-home', extraHtml(extra({ ...remotes, home: `${cdn.origin}/${variant}/mf-manifest.json` })));
  const basePort = workerPorts(parallelIndex, SLOT);
  return serve(basePort, writeConfig(basePort, { remotes }));
}

/**
 * What the operator configured, and nothing of the attacker's: the server
 * left Home's HTML out (said once in its log) and rendered About and Contact;
 * Home, granted no script, shows its alert and none of its code runs (issue
 * 46: the browser never renders a static section); the tabs select; Contact is
 * hydrated and its Send posts; About, rendered by the server, is never asked
 * for again and names the config's officer.
 */
async function expectPageAsConfigured(page: Page, site: PorticoSite, refusal: string): Promise<void> {
  const problems = await watchProblems(page);
  const posts = watchContactPosts(page);
  await serverStoresMessages(page);

  const html = await (await fetch(site.url)).text();
  const data = parsePageData(new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html)?.[1]);
  expect(data?.rendered).toEqual(['about', 'contact']);
  expect(site.logged.filter((line) => line.includes('its HTML was refused'))).toEqual([
    expect.stringContaining(`the home section is rendered in the browser: its HTML was refused: ${refusal}`),
  ]);

  await page.goto(site.url);
  await expect(page.getByRole('tabpanel', { name: 'Home' }).getByRole('alert')).toContainText('The Home section could not be loaded.');

  await page.getByRole('tab', { name: 'Contact us' }).click();
  await expect(page.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
  await contact.getByLabel('Name').fill('Asha');
  await contact.getByLabel('Telephone').fill('+91 98765 43210');
  await contact.getByLabel('Message').fill('When can I apply?');
  await contact.getByRole('button', { name: 'Send message' }).click();
  await expect.poll(() => posts.length).toBe(1);
  expect(posts[0]!.body).toMatchObject({ name: 'Asha', telephone: '+91 98765 43210', message: 'When can I apply?', language: 'en' });

  await page.getByRole('tab', { name: 'About Us' }).click();
  const about = page.getByRole('tabpanel', { name: 'About Us' });
  await expect(about).toContainText(OFFICER);
  await expect(about).not.toContainText(ATTACKER);
  // Its server HTML stands: the page script never asked for its island.
  expect(await about.locator('[data-section-island]').getAttribute('data-island-state')).toBeNull();
  // The loader's one report: Home, left to the browser, is not loaded there.
  expect(problems).toEqual([expect.stringContaining('the integrator grants this section no script in the browser')]);
}

test("Home's HTML with an element holding forged page data (an officer of the attacker's, About left to the browser): the page reads its own", async ({
  page,
}, testInfo) => {
  const site = await siteWithHome(testInfo.parallelIndex, 'forged-page-data', (remotes) => {
    const legal = {
      ...sampleConfig.legal,
      IN: { ...sampleConfig.legal!.IN!, grievanceOfficer: { name: ATTACKER, email: 'mallory@evil.example', phone: '+1 555 0100' } },
    };
    const forged = {
      config: { ...sampleConfig, remotes, legal },
      language: 'en',
      manifests: {},
      rendered: ['home', 'contact'],
      hydration: {},
      problems: [],
      allowedRemoteOrigins: [],
    };
    return [['div', { id: PAGE_DATA_ID, hidden: true }, [JSON.stringify(forged)]]];
  });
  try {
    await expectPageAsConfigured(page, site, `<div> takes the id "${PAGE_DATA_ID}", which is not the home section's own`);
  } finally {
    await site.close();
  }
});

test("Home's HTML with elements named as the bundlers' globals (the page script's and the host's chunk lists): the page's script runs", async ({
  page,
}, testInfo) => {
  const site = await siteWithHome(testInfo.parallelIndex, 'bundler-globals', () => [
    ['div', { id: 'webpackChunkportico_host_page_script' }],
    ['div', { id: 'webpackChunkportico_host' }],
  ]);
  try {
    await expectPageAsConfigured(page, site, '<div> takes the id "webpackChunkportico_host_page_script", which is not the home section\'s own');
  } finally {
    await site.close();
  }
});

test("Home's HTML with a container marked as Contact's, holding Contact's fixed ids: Contact stays in its own panel, rendered by the server", async ({
  page,
}, testInfo) => {
  const site = await siteWithHome(testInfo.parallelIndex, 'contact-island', () => [
    [
      'div',
      { 'data-section-island': 'contact' },
      [
        [
          'form',
          null,
          [
            ['label', { htmlFor: '_contact-R_0_-name' }, ['Name']],
            ['input', { id: '_contact-R_0_-name', name: 'name' }],
          ],
        ],
      ],
    ],
  ]);
  try {
    await expectPageAsConfigured(page, site, "<div> has the attribute data-section-island, which marks the page's own parts");
  } finally {
    await site.close();
  }
});

// Issue 46: a tag name ends only at HTML's whitespace. Chromium keeps each of
// these characters in the name, so the end tags close the slot's own
// elements and what follows lands in the page's <main>; the server's check
// refuses each (server/src/ssr/__tests__/section-html.test.ts, same list).
test('in Chromium, elements named with a character JavaScript reads as space take what follows out of the slot', async ({ page }) => {
  for (const space of NON_HTML_SPACES) {
    await page.setContent(
      `<main><section id="home"><div data-section-island="home"><div class="section-root">${nameSpaceEscape(space, '<p data-attacker="">NOTICE</p>')}</div></div></section><section id="contact"></section></main>`,
    );
    const escaped = await page.evaluate(() => !document.querySelector('.section-root')!.contains(document.querySelector('[data-attacker]')));
    expect(escaped, codePoint(space)).toBe(true);
  }
});

const NOTICE = 'NOTICE: our contact form has moved';

test("Home's HTML with elements named with a no-break space: the notice never reaches the page, and About, Contact and the footer keep their places", async ({
  page,
}, testInfo) => {
  const escape = nameSpaceEscape('\u00a0', `<div class="home-escaped"><h2>${NOTICE}</h2><a href="https://evil.example/contact">Write to us here</a></div>`);
  const site = await siteWithHome(testInfo.parallelIndex, 'no-break-space', () => [['div', { dangerouslySetInnerHTML: { __html: escape } }]]);
  try {
    await expectPageAsConfigured(page, site, '"<div\u00a0" is not an element React writes');
    await expect(page.getByText(NOTICE)).toHaveCount(0);
    // What the escape did in the landed build: About, Contact and the footer pushed out of <main>, into Home's slot.
    await expect(page.locator('main.site-main > section.section-panel')).toHaveCount(3);
    await expect(page.locator('section footer.site-footer')).toHaveCount(0);
  } finally {
    await site.close();
  }
});
