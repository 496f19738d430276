// Captures every section in each language at the narrowest phone we serve,
// a common phone and a desktop width, against the production build (`npm run
// build` first), into screenshots/ at the repository root; also both toasts,
// the focused skip link, and a page with a bad field (left out, no notice)
// and a section that failed. Each language is its market's page, with the
// default config's sample lender of that market. For people to look at, not
// to compare by machine.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { answerContact } from './support/contact-api';
import { startPortico } from '@portico/server';
import type { RuntimeConfig } from '@portico/shared-config';
import { sampleConfig } from '@portico/testing/sample-config';
import { REPO_ROOT } from './support/paths';

const OUT = path.join(REPO_ROOT, 'screenshots');
const BASE_PORT = Number(process.env.PORT ?? 8700);
const VIEWPORTS = [
  { width: 320, height: 640 },
  { width: 360, height: 800 },
  { width: 1280, height: 800 },
] as const;
const LANGUAGES = [
  { type: '1', name: 'en' },
  { type: '2', name: 'id' },
] as const;
const SECTIONS = ['home', 'about', 'contact'] as const;

/** An operator's own colours (config.json `theme`), to see that the page stays calm in them. */
const PLUM_THEME = { background: '#fbf9f4', text: '#222222', primary: '#6b2d5c' };

/** What an operator's mistakes look like: a bad field (left out of the page) and About's remote down (its alert). */
const FAULTS = { email: 42, remotes: { about: 9 } } as const;

function configFile(basePort: number, faults?: typeof FAULTS, theme?: typeof PLUM_THEME): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'portico-shots-')), 'config.json');
  const remotes = Object.fromEntries(
    SECTIONS.map((id, index) => {
      // Nothing listens on basePort + 9.
      const port = basePort + (faults && id === 'about' ? faults.remotes.about : index + 1);
      return [id, `http://localhost:${port}/mf-manifest.json`];
    }),
  );
  // Each market's footer as the default config.json sets it (sampleConfig has no byMarket); the faulty page's bad
  // email is the top-level one, which a market's own email would hide.
  const { byMarket } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'config-server/config/default-config.json'), 'utf8')) as Pick<RuntimeConfig, 'byMarket'>;
  const config = { ...sampleConfig, remotes, theme, ...(faults ? { email: faults.email } : { byMarket }) };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

async function capture(browser: Browser, url: string, sections: readonly string[], prefix: string): Promise<string[]> {
  const written: string[] = [];
  for (const viewport of VIEWPORTS) {
    const page = await browser.newPage({ viewport, reducedMotion: 'reduce' });
    for (const language of LANGUAGES) {
      for (const section of sections) {
        // A fresh load each time: from #home to #about alone would be an
        // in-page jump that scrolls and focuses the panel, which no visitor
        // opening the link sees.
        await page.goto('about:blank');
        await page.goto(`${url}/?type=${language.type}#${section}`);
        await page.locator(`#${section}[role="tabpanel"]`).locator('h2, [role="alert"]').waitFor({ timeout: 15_000 });
        await page.waitForLoadState('networkidle');
        const file = path.join(OUT, `${prefix}${section}-${language.name}-${viewport.width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        written.push(file);
      }
    }
    // Both toasts, in each language, over the contact form; then the skip
    // link as the first Tab shows it.
    if (sections.includes('contact')) {
      for (const language of LANGUAGES) {
        await page.goto('about:blank');
        await page.goto(`${url}/?type=${language.type}#contact`);
        const send = page.locator('#contact button[type="submit"]');
        await send.click();
        await page.getByRole('alert').waitFor();
        const failure = path.join(OUT, `${prefix}contact-toast-${language.name}-${viewport.width}.png`);
        await page.screenshot({ path: failure });
        // The labelled fields only: the hidden one is for bots.
        for (const field of await page.locator('#contact form > label + input, #contact form > label + textarea').all()) await field.fill('Asha 98765');
        await answerContact(page, { status: 503, json: { error: 'store down' } });
        await send.click();
        await page.locator('#contact .contact-form__delivery').waitFor();
        const undelivered = path.join(OUT, `${prefix}contact-not-sent-${language.name}-${viewport.width}.png`);
        await page.screenshot({ path: undelivered, fullPage: true });
        await page.unrouteAll();
        await answerContact(page, { status: 201, json: { id: 'screenshot' } });
        await send.click();
        await page.getByRole('status').waitFor();
        const success = path.join(OUT, `${prefix}contact-toast-success-${language.name}-${viewport.width}.png`);
        await page.screenshot({ path: success });
        await page.unrouteAll();
        written.push(failure, undelivered, success);
      }
      await page.goto('about:blank');
      await page.goto(`${url}/#home`);
      await page.locator('#home h2').waitFor();
      await page.keyboard.press('Tab');
      const skip = path.join(OUT, `${prefix}skip-link-${viewport.width}.png`);
      await page.screenshot({ path: skip });
      written.push(skip);
    }
    await page.close();
  }
  return written;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  const sites = [
    { basePort: BASE_PORT, sections: SECTIONS, prefix: '' },
    { basePort: BASE_PORT + 20, sections: ['about'], prefix: 'faults-', faults: FAULTS },
    { basePort: BASE_PORT + 30, sections: ['home', 'contact'], prefix: 'theme-', theme: PLUM_THEME },
  ];
  try {
    for (const site of sites) {
      const running = await startPortico({
        rootDir: REPO_ROOT,
        basePort: site.basePort,
        configPath: configFile(site.basePort, site.faults, site.theme),
      });
      try {
        for (const file of await capture(browser, running.url, site.sections, site.prefix)) {
          console.log(path.relative(REPO_ROOT, file));
        }
      } finally {
        await running.close();
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
