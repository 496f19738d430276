import type { Page } from '@playwright/test';
import { expect, serve, test, workerPorts, writeConfig, type PorticoSite } from '../support/fixtures';

const MARKUP = '<img src=x onerror=alert(1)>';

/** 40 characters: the brand takes more than one line of a phone's sticky header. */
const LONG_NAME = 'Kredit Cepat Nusantara Sejahtera Bersama';

/** Each market's lender, as an operator writes them (not the sample's). */
const india = {
  companyName: 'Bharat Quick Credit Private Limited',
  registrationNumber: 'U65999MH2026PTC123456',
  licenceNumber: 'N-13.02468',
  registeredAddress: '4 Nariman Point, Mumbai 400021',
  website: 'https://bharat-quick.example',
  phone: '+91 22 5555 0100',
  grievanceOfficer: { name: 'Meera Iyer', email: 'grievance@bharat-quick.example', phone: '+91 22 5555 0101' },
};
const indonesia = {
  companyName: `PT Kredit Cepat Nusantara ${MARKUP}`,
  registrationNumber: '9120001234567',
  licenceNumber: 'KEP-07/D.05/2026',
  registeredAddress: `Jl. M.H. Thamrin No. 9, Jakarta ${MARKUP}`,
  website: 'https://kcn.example',
  phone: '+62 21 5555 0100',
  grievanceOfficer: { name: 'Dewi Lestari', email: 'pengaduan@kcn.example' },
  association: 'Asosiasi Fintech Pendanaan Bersama Indonesia (AFPI)',
};

const CONFIG = {
  comName: LONG_NAME,
  copyright: '© 2026 Kredit Cepat Nusantara. All rights reserved.',
  copyrightByLanguage: { id: '© 2026 Kredit Cepat Nusantara. Hak cipta dilindungi undang-undang.' },
  legal: { IN: india, ID: indonesia },
};

const MARKETS = [
  {
    name: 'India',
    query: '?type=1',
    lender: india,
    other: indonesia,
    tabs: { home: 'Home', about: 'About Us', contact: 'Contact us' },
    lenderLabel: 'Lender',
    path: ['Grievance redressal officer', 'Reserve Bank of India through its Complaint Management System'],
    channel: { name: 'cms.rbi.org.in', href: 'https://cms.rbi.org.in' },
    otherRegulator: /OJK|Otoritas Jasa Keuangan/,
    switchTo: 'Bahasa Indonesia',
  },
  {
    name: 'Indonesia',
    query: '?type=2',
    lender: indonesia,
    other: india,
    tabs: { home: 'Beranda', about: 'Tentang Kami', contact: 'Hubungi Kami' },
    lenderLabel: 'Pemberi Pinjaman',
    path: ['lebih dulu kepada petugas penanganan pengaduan kami', 'layanan konsumen Otoritas Jasa Keuangan (OJK)', indonesia.association],
    channel: { name: 'kontak157.ojk.go.id', href: 'https://kontak157.ojk.go.id' },
    otherRegulator: /Reserve Bank|RBI/,
    switchTo: 'English',
  },
] as const;

type Market = (typeof MARKETS)[number];
const SECTIONS = ['home', 'about', 'contact'] as const;

/** What the English footer says that no Indonesian page may (its labels, the copyright as written, a sample's marker). */
const ENGLISH_IN_FOOTER = /Company Name|Contact Email|Contact Address|Lender|Privacy|Not configured|All rights reserved|\(sample\)/;

// One site for this file, serving the test config with both lenders: its tests run in order in one worker (a failure
// does not skip the ones after it, as `serial` would), so the site starts once. (A worker fixture of the file's own
// would give the file workers of their own: Playwright runs specs whose worker fixtures differ in separate workers.)
test.describe.configure({ mode: 'default' });

let markets: PorticoSite & { configPath: string; close(): Promise<void> };
// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
test.beforeAll(async ({}, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 4);
  const configPath = writeConfig(basePort, CONFIG);
  markets = { ...(await serve(basePort, configPath)), configPath };
});
test.afterAll(async () => {
  await markets?.close();
});

/**
 * Whether the shown section's heading is wholly on screen below the sticky
 * header, polled: a tab's scroll is smooth.
 */
async function expectHeadingClear(page: Page, market: Market, section: (typeof SECTIONS)[number], after: string) {
  const heading = page.getByRole('tabpanel', { name: market.tabs[section] }).getByRole('heading', { level: 2 });
  await expect(heading).toBeVisible();
  await expect
    .poll(
      () =>
        heading.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const header = document.querySelector('header')!.getBoundingClientRect();
          return box.top >= header.bottom - 0.5 && box.bottom <= window.innerHeight;
        }),
      { message: `${market.name}, ${section}, after ${after}: the heading is wholly below the header` },
    )
    .toBe(true);
}

/** How many lines each tab's name takes. */
function tabLines(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="tab"]')].map((tab) => {
      const range = document.createRange();
      range.selectNodeContents(tab);
      return new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size;
    }),
  );
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 720 },
]) {
  test(`at ${viewport.width}px each market's page shows its own lender and complaint path alone, and every section's heading comes clear of the header after its address, a tab and a language switch`, async ({
    page,
  }) => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.setViewportSize(viewport);
    for (const market of MARKETS) {
      const other = MARKETS.find((one) => one !== market)!;
      for (const section of SECTIONS) {
        await page.goto(`${markets.url}/${market.query}#${section}`);
        await expectHeadingClear(page, market, section, 'its address');
        // The language switch is a page in the other language at the same section.
        await page.getByRole('group').getByRole('link', { name: market.switchTo }).click();
        await expectHeadingClear(page, other, section, 'a language switch');
      }

      await page.goto(`${markets.url}/${market.query}`);
      if (viewport.width === 360) expect(new Set(await tabLines(page)).size, 'every tab name takes as many lines').toBe(1);
      for (const section of ['about', 'contact', 'home'] as const) {
        await page.getByRole('tab', { name: market.tabs[section] }).click();
        await expectHeadingClear(page, market, section, 'a tab');
      }

      await page.getByRole('tab', { name: market.tabs.about }).click();
      const about = page.getByRole('tabpanel', { name: market.tabs.about });
      for (const value of [
        market.lender.companyName,
        market.lender.registrationNumber,
        market.lender.licenceNumber,
        market.lender.grievanceOfficer.name,
        ...market.path,
      ]) {
        await expect(about).toContainText(value);
      }
      const channel = about.getByRole('link', { name: market.channel.name });
      await expect(channel).toHaveAttribute('href', market.channel.href);
      await expect(channel).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(about).not.toContainText(market.otherRegulator);
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText(`${market.lenderLabel}${market.lender.companyName}`);
      for (const value of [market.other.companyName, market.other.licenceNumber, market.other.grievanceOfficer.name]) {
        await expect(page.locator('body')).not.toContainText(value);
      }
      if (market.query === '?type=2') {
        await expect(footer).toContainText(CONFIG.copyrightByLanguage.id);
        await expect(footer).not.toContainText(ENGLISH_IN_FOOTER);
      }
    }
    // Markup in the values stays text.
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toBe(0);
  });
}

test("a market without a block shows no lender at all, and the other market's page is unchanged", async ({ page }) => {
  const lenderOf = async (market: Market) => {
    await page.goto(`${markets.url}/${market.query}#about`);
    const about = page.getByRole('tabpanel', { name: market.tabs.about });
    await expect(about.getByRole('heading', { level: 2 })).toBeVisible();
    return { about: (await about.innerText()).trim(), footer: (await page.getByRole('contentinfo').innerText()).trim() };
  };
  const [india, indonesia] = MARKETS;
  const before = await lenderOf(indonesia);
  writeConfig.rewrite(markets.configPath, { legal: { ID: CONFIG.legal.ID } });
  try {
    const withoutIndia = await lenderOf(india);
    expect(withoutIndia.about).toBe(
      `About Us\n\n${LONG_NAME} offers short-term personal loans to salaried people, with a simple online application and clear terms.`,
    );
    for (const value of [india.lender.companyName, indonesia.lender.companyName, 'Complaints', 'Reserve Bank', 'OJK'])
      expect(withoutIndia.about).not.toContain(value);
    expect(withoutIndia.footer).not.toMatch(/Lender|PT Kredit Cepat|Bharat Quick/);
    expect(await lenderOf(indonesia)).toEqual(before);
  } finally {
    writeConfig.rewrite(markets.configPath, { legal: CONFIG.legal });
  }
});
