import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig } from '../support/fixtures';

// Issue 48, item 7: the nav holds up to 8 sections from 320 px up. The five
// added here are data in config.json, each served by a built-in remote's
// build (granted no script, so each shows its contained alert: what matters
// here is the nav). One id is hyphenated, one label holds "&".
const SLOT = 2;

const ADDED = {
  'repay-calc': { en: 'Repayment calculator', id: 'Kalkulator pelunasan' },
  fees: { en: 'Fees & charges', id: 'Biaya & ongkos' },
  faq: { en: 'Questions', id: 'Tanya jawab' },
  grievance: { en: 'Grievance redressal', id: 'Penanganan pengaduan' },
  notices: { en: 'Regulatory notices', id: 'Pemberitahuan regulator' },
} as const;

const LANGUAGES = [
  { name: 'English', query: '', builtIn: ['Home', 'About Us', 'Contact us'], key: 'en' },
  { name: 'Indonesian', query: '?type=2', builtIn: ['Beranda', 'Tentang Kami', 'Hubungi Kami'], key: 'id' },
] as const;

type Language = (typeof LANGUAGES)[number];

const labelsIn = (language: Language) => [...language.builtIn, ...Object.values(ADDED).map((labels) => labels[language.key])];

test.describe.configure({ mode: 'serial' });

let site: Awaited<ReturnType<typeof serve>>;

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
test.beforeAll(async ({}, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, SLOT);
  const remotes = siteRemotes(basePort);
  const sections = Object.fromEntries(Object.entries(ADDED).map(([id, labels]) => [id, { labels }]));
  const added = Object.fromEntries(Object.keys(ADDED).map((id) => [id, remotes.home]));
  site = await serve(basePort, writeConfig(basePort, { remotes: { ...remotes, ...added }, sections }));
});

test.afterAll(async () => {
  await site?.close();
});

/** The tab list's and a tab's boxes: whether the tab is wholly inside the list's visible part. */
async function whollyShown(list: Locator, tab: Locator): Promise<boolean> {
  const [outer, inner] = await Promise.all([list.boundingBox(), tab.boundingBox()]);
  return outer !== null && inner !== null && inner.x >= outer.x - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5;
}

async function openAt320(page: Page, language: Language, hash = '') {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`${site.url}/${language.query}${hash}`);
  const list = page.getByRole('tablist');
  await expect(list.getByRole('tab')).toHaveCount(8);
  return list;
}

for (const language of LANGUAGES) {
  test(`at 320px in ${language.name}: 8 tabs, each label whole on one line, the list scrolls with a cue, axe finds nothing`, async ({ page }) => {
    const list = await openAt320(page, language);
    await expect(list.getByRole('tab')).toHaveText(labelsIn(language));
    // Each label whole: no tab clips its text or wraps it onto a second line.
    for (const tab of await list.getByRole('tab').all()) {
      const { clipped, lines } = await tab.evaluate((element) => ({
        clipped: element.scrollWidth > element.clientWidth,
        // An inline element broken over lines has a box per line.
        lines: element.querySelector('bdi')?.getClientRects().length,
      }));
      const label = (await tab.textContent()) ?? '';
      expect(clipped, label).toBe(false);
      expect(lines, label).toBe(1);
    }
    // More tabs than fit: the list scrolls sideways, within the page (no page-wide horizontal scroll), shaded at its edges.
    const { overflowing, pageScrolls, shade } = await list.evaluate((element) => ({
      overflowing: element.scrollWidth > element.clientWidth,
      pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      shade: getComputedStyle(element).backgroundImage,
    }));
    expect(overflowing).toBe(true);
    expect(pageScrolls).toBe(false);
    expect(shade.match(/linear-gradient/g)).toHaveLength(4);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  test(`at 1024px in ${language.name}: one row, the brand, the language links and every label whole, the tabs scrolling between them`, async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(`${site.url}/${language.query}`);
    const nav = page.getByRole('navigation');
    const list = nav.getByRole('tablist');
    await expect(list.getByRole('tab')).toHaveCount(8);
    // Each part with the most lines any of its text takes (a text node broken over lines has a box per line): one each.
    const lines = await nav.evaluate((element) =>
      [...element.querySelectorAll('.site-nav__brand, .language-switch__option, .section-tab bdi')].map((part) => {
        const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
        let most = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          most = Math.max(most, range.getClientRects().length);
        }
        return `${part.className || part.textContent}: ${most}`;
      }),
    );
    expect(lines.filter((line) => !line.endsWith(': 1'))).toEqual([]);
    const [tabs, links] = await Promise.all([list.boundingBox(), nav.getByRole('group').boundingBox()]);
    expect(tabs!.y).toBeCloseTo(links!.y, -1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  test(`in ${language.name}, the keyboard reaches every tab, and the focused one is brought into the list's view`, async ({ page }) => {
    const list = await openAt320(page, language);
    const tabs = list.getByRole('tab');
    await tabs.first().focus();
    await page.keyboard.press('End');
    await expect(tabs.last()).toBeFocused();
    expect(await whollyShown(list, tabs.last())).toBe(true);
    await page.keyboard.press('Enter');
    await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(/#notices$/);
    await expect(page.getByRole('tabpanel', { name: labelsIn(language)[7] })).toBeVisible();
    await page.keyboard.press('Home');
    await expect(tabs.first()).toBeFocused();
    expect(await whollyShown(list, tabs.first())).toBe(true);
    for (let index = 1; index < 8; index += 1) {
      await page.keyboard.press('ArrowRight');
      await expect(tabs.nth(index)).toBeFocused();
      expect(await whollyShown(list, tabs.nth(index)), `tab ${index + 1} in view`).toBe(true);
    }
  });
}

test('a deep link to the last tab shows it selected and scrolled into the list; the list scrolled back, a tap selects the first', async ({ browser }) => {
  const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  try {
    await page.goto(`${site.url}/#grievance`);
    const list = page.getByRole('tablist');
    const grievance = list.getByRole('tab', { name: 'Grievance redressal' });
    await expect(grievance).toHaveAttribute('aria-selected', 'true');
    expect(await whollyShown(list, grievance)).toBe(true);
    // The list scrolled back as a finger's pan would (its scrollLeft), then a tap on the first tab.
    await list.evaluate((element) => element.scrollTo({ left: 0 }));
    const home = list.getByRole('tab', { name: 'Home' });
    expect(await whollyShown(list, home)).toBe(true);
    await home.tap();
    await expect(home).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(/#home$/);
  } finally {
    await context.close();
  }
});

test('a stale #<id> (a section no longer listed) lands on the first tab', async ({ page }) => {
  await page.goto(`${site.url}/#retired-section`);
  await expect(page.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveCount(1);
});
