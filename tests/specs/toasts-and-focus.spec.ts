import type { Locator, Page } from '@playwright/test';
import { answerContact } from '../support/contact-api';
import { expect, test, type PorticoSite } from '../support/fixtures';
import { installClock, stopClock } from '../support/page-clock';

// Issue 49, item 3: toasts never cover a control, a focus ring for keyboard
// users only, the tabs fit at 320 px, and Tab goes from the tab list to the
// panel. Each test here failed on the build before the change (checked).

const LANGUAGES = [
  {
    name: 'English',
    query: '',
    tabs: ['Home', 'About Us', 'Contact us'],
    contact: 'Contact us',
    switchTo: { name: 'Bahasa Indonesia', query: '?type=2', contact: 'Hubungi Kami' },
    fields: ['Name', 'Telephone', 'Message'],
    send: 'Send message',
    retry: 'Try again',
    incomplete: 'Please provide complete information!',
    notSent: 'Your message was not sent.',
  },
  {
    name: 'Indonesian',
    query: '?type=2',
    tabs: ['Beranda', 'Tentang Kami', 'Hubungi Kami'],
    contact: 'Hubungi Kami',
    switchTo: { name: 'English', query: '', contact: 'Contact us' },
    fields: ['Nama', 'Nomor telepon', 'Pesan'],
    send: 'Kirim pesan',
    retry: 'Coba lagi',
    incomplete: 'Mohon lengkapi semua data!',
    notSent: 'Pesan Anda belum terkirim.',
  },
] as const;

type Language = (typeof LANGUAGES)[number];

const WIDTHS = [
  { width: 320, height: 640 },
  { width: 768, height: 1024 },
  { width: 1280, height: 720 },
];

async function openContact(page: Page, site: PorticoSite, language: Language) {
  await page.goto(`${site.url}/${language.query}#contact`);
  const panel = page.getByRole('tabpanel', { name: language.contact });
  await expect(panel.getByRole('button', { name: language.send })).toBeVisible();
  return panel;
}

/**
 * What the toast covers: every field, error and button on the page that is
 * shown and in the viewport and whose box meets the toast's. An error is
 * what a field's `aria-describedby` names.
 */
function coveredByToast(toast: Locator): Promise<string[]> {
  return toast.evaluate((element) => {
    const toastBox = element.getBoundingClientRect();
    const described = [...document.querySelectorAll('[aria-describedby]')].flatMap((field) =>
      (field.getAttribute('aria-describedby') ?? '').split(/\s+/).map((id) => document.getElementById(id)),
    );
    const controls = [...document.querySelectorAll<HTMLElement>('input, textarea, select, button, a[href], [role="tab"]'), ...described]
      .filter((control): control is HTMLElement => control instanceof HTMLElement && !control.closest('[aria-hidden="true"]'))
      .filter((control) => control.getClientRects().length > 0 && !element.contains(control));
    return controls
      .filter((control) => {
        const box = control.getBoundingClientRect();
        const inView = box.bottom > 0 && box.top < window.innerHeight;
        return inView && box.left < toastBox.right && box.right > toastBox.left && box.top < toastBox.bottom && box.bottom > toastBox.top;
      })
      .map((control) => `${control.tagName.toLowerCase()} ${(control.textContent ?? control.getAttribute('name') ?? '').trim().slice(0, 40)}`);
  });
}

/** Whether `locator` is wholly inside the viewport, below the sticky header. */
function wholeOnScreen(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const header = document.querySelector('header')!.getBoundingClientRect();
    return box.top >= header.bottom - 0.5 && box.bottom <= window.innerHeight + 0.5;
  });
}

/** The send button at the foot of the screen, where a phone's visitor presses it, then pressed. */
async function pressSendAtTheFoot(panel: Locator, language: Language) {
  const send = panel.getByRole('button', { name: language.send });
  await send.evaluate((button) => button.scrollIntoView({ block: 'end' }));
  await send.click();
}

/** One test per width and language, its page already that wide: `title` names the case. */
function testAtEachWidth(
  widths: readonly { width: number; height: number }[],
  title: (width: number, language: Language) => string,
  body: (fixtures: { page: Page; site: PorticoSite }, language: Language) => Promise<void>,
) {
  for (const viewport of widths) {
    for (const language of LANGUAGES) {
      test(title(viewport.width, language), async ({ page, site }) => {
        await page.setViewportSize(viewport);
        await body({ page, site }, language);
      });
    }
  }
}

testAtEachWidth(
  WIDTHS,
  (width, language) =>
    `at ${width}px in ${language.name}, the toast of an empty, a partial and a rate-limited send covers no field, error or button, and is on screen`,
  async ({ page, site }, language) => {
    await answerContact(page, { status: 429, json: { error: 'too many' }, headers: { 'Retry-After': '120' } });
    await installClock(page);
    const panel = await openContact(page, site, language);
    const send = panel.getByRole('button', { name: language.send });
    // Stopped once Contact is hydrated (hydration runs on the page's timers: stopped before, a press would be held for good),
    // so each 1 s toast stays while it is measured.
    await stopClock(page, send);
    const message = panel.getByLabel(language.fields[2]);

    // Empty: three errors; partial: the message's error alone.
    for (const filled of [0, 2]) {
      for (const [index, field] of language.fields.entries()) await panel.getByLabel(field).fill(index < filled ? 'Asha 98765' : '');
      await pressSendAtTheFoot(panel, language);
      const toast = page.getByRole('alert').filter({ hasText: language.incomplete });
      await expect(toast).toBeVisible();
      await expect.poll(() => wholeOnScreen(toast), `the toast on screen after ${filled} fields`).toBe(true);
      expect(await coveredByToast(toast), `after ${filled} fields`).toEqual([]);
      const error = page.locator(`[id="${await message.getAttribute('aria-describedby')}"]`);
      await expect(error).toBeVisible();
      expect(await wholeOnScreen(error), 'the message error on screen').toBe(true);
      expect(await wholeOnScreen(send), 'the send button on screen').toBe(true);
      await page.clock.runFor(1000);
      await expect(toast).toBeHidden();
    }

    for (const field of language.fields) await panel.getByLabel(field).fill('Asha 98765');
    await pressSendAtTheFoot(panel, language);
    const toast = page.getByRole('alert').filter({ hasText: language.notSent });
    const retry = panel.getByRole('button', { name: language.retry });
    await expect(toast).toBeVisible();
    await expect(retry).toBeVisible();
    await expect.poll(() => wholeOnScreen(toast), 'the toast on screen when rate-limited').toBe(true);
    expect(await coveredByToast(toast), 'rate-limited').toEqual([]);
    expect(await wholeOnScreen(retry), `${language.retry} on screen`).toBe(true);
  },
);

/** Whether `locator` draws a focus indicator now: an outline, or a box shadow (the panel's bar). */
function ringOf(locator: Locator): Promise<string | null> {
  return locator.evaluate((element) => {
    const style = getComputedStyle(element);
    if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) return `outline ${style.outlineWidth} ${style.outlineStyle}`;
    return style.boxShadow === 'none' ? null : `box-shadow ${style.boxShadow}`;
  });
}

/** The focused element's ring, with what it is, for a readable failure. */
async function focusedRing(page: Page): Promise<string> {
  const focused = page.locator(':focus');
  if ((await focused.count()) === 0) return 'nothing focused';
  const name = await focused.evaluate((element) => `${element.tagName.toLowerCase()}#${element.id}`);
  return `${name}: ${(await ringOf(focused)) ?? 'no ring'}`;
}

for (const language of LANGUAGES) {
  test(`in ${language.name}, a mouse never sees a focus ring on a tab or a panel: after a click on a tab, a #contact link and a language switch`, async ({
    page,
    site,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${site.url}/${language.query}#contact`);
    const contact = page.getByRole('tabpanel', { name: language.contact });
    await expect(contact.getByRole('heading', { level: 2 })).toBeVisible();
    // The browser focuses a focusable anchor: the panel, whose ring would be a 4 px bar across the page.
    expect(await ringOf(contact), 'the panel of a #contact link').toBeNull();
    expect(await focusedRing(page)).toMatch(/no ring|nothing focused/);

    const about = page.getByRole('tab', { name: language.tabs[1] });
    await about.click();
    await expect(about).toHaveAttribute('aria-selected', 'true');
    expect(await ringOf(about), 'a clicked tab').toBeNull();
    expect(await ringOf(page.getByRole('tabpanel', { name: language.tabs[1] })), 'its panel').toBeNull();

    await page.getByRole('tab', { name: language.contact }).click();
    await page.getByRole('link', { name: language.switchTo.name }).click();
    await expect(page).toHaveURL(new RegExp(`${language.switchTo.query.replace('?', '\\?')}#contact$`));
    const switched = page.getByRole('tabpanel', { name: language.switchTo.contact });
    await expect(switched.getByRole('heading', { level: 2 })).toBeVisible();
    expect(await ringOf(switched), 'the panel after a language switch').toBeNull();
    expect(await focusedRing(page)).toMatch(/no ring|nothing focused/);
  });

  test(`at 320px in ${language.name} the three tabs fit one row, each label on one line and whole`, async ({ page, site }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${site.url}/${language.query}`);
    const list = page.getByRole('tablist');
    await expect(list.getByRole('tab')).toHaveText([...language.tabs]);
    const tabs = await list.getByRole('tab').evaluateAll((elements) =>
      elements.map((element) => ({
        label: element.textContent,
        lines: element.querySelector('bdi')!.getClientRects().length,
        clipped: element.scrollWidth > element.clientWidth,
        top: element.getBoundingClientRect().top,
        height: element.getBoundingClientRect().height,
      })),
    );
    for (const tab of tabs) {
      expect(tab.lines, `${tab.label} on one line`).toBe(1);
      expect(tab.clipped, `${tab.label} whole`).toBe(false);
      expect(tab.top, `${tab.label} on the first tab's row`).toBe(tabs[0]!.top);
      expect(tab.height, `${tab.label} as tall as the first`).toBe(tabs[0]!.height);
    }
    // Three fit without scrolling the list.
    const { needed, shown } = await list.evaluate((element) => ({ needed: element.scrollWidth, shown: element.clientWidth }));
    expect(needed, `the tabs need ${needed}px of ${shown}px`).toBeLessThanOrEqual(shown);
  });
}

testAtEachWidth(
  [WIDTHS[0]!, WIDTHS[2]!],
  (width, language) => `at ${width}px in ${language.name}, Tab from the tab list reaches the active panel next, and the keyboard sees the ring on both`,
  async ({ page, site }, language) => {
    await page.goto(`${site.url}/${language.query}`);
    const home = page.getByRole('tabpanel', { name: language.tabs[0] });
    await expect(home.getByRole('heading', { level: 2 }).first()).toBeVisible();
    const tab = page.getByRole('tab', { selected: true });
    for (let presses = 0; presses < 6 && !(await tab.evaluate((element) => element === document.activeElement)); presses += 1) {
      await page.keyboard.press('Tab');
    }
    await expect(tab).toBeFocused();
    expect(await ringOf(tab), 'the tab, by keyboard').not.toBeNull();
    await page.keyboard.press('Tab');
    await expect(home).toBeFocused();
    expect(await ringOf(home), 'the panel, by keyboard').toMatch(/^box-shadow .*4px/);
    await page.keyboard.press('Shift+Tab');
    await expect(tab).toBeFocused();

    // Another section chosen with the keyboard: Tab goes to it.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const contact = page.getByRole('tabpanel', { name: language.contact });
    await expect(contact).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(contact).toBeFocused();
    expect(await ringOf(contact), 'the contact panel, by keyboard').not.toBeNull();
  },
);
