import type { Page } from '@playwright/test';
import { answerContact, serverStoresMessages, watchContactPosts, type ContactAnswer } from '../support/contact-api';
import { expect, test, type PorticoSite } from '../support/fixtures';
import { expectLastsExactly, installClock, stopClock, expectHydrated } from '../support/page-clock';

const LANGUAGES = [
  {
    name: 'English',
    code: 'en',
    query: '',
    tab: 'Contact us',
    fields: { name: 'Name', telephone: 'Telephone', message: 'Message' },
    values: { name: 'Asha', telephone: '+91 98765 43210', message: 'When can I apply?' },
    send: 'Send message',
    retry: 'Try again',
    incomplete: 'Please provide complete information!',
    success: 'Submit successfully！',
    notSent: 'Your message was not sent.',
    thanks: 'Thank you, Asha. Your message has reached us, and we will get back to you.',
    kept: 'Your text is kept',
    reasons: {
      busy: 'We could not send your message: the server is busy.',
      offline: 'our server could not be reached',
      timeout: 'our server did not answer within a minute',
      rateLimited: 'Please wait 2 minutes, then try again.',
      invalidMessage: 'did not accept the Message field. Please check it; it takes at most 5,000 characters.',
      unavailable: 'Sending messages is not available on this site',
    },
    privacy: 'delete them after 180 days',
  },
  {
    name: 'Indonesian',
    code: 'id',
    query: '?type=2',
    tab: 'Hubungi Kami',
    fields: { name: 'Nama', telephone: 'Nomor telepon', message: 'Pesan' },
    values: { name: 'Budi', telephone: '0812 3456 7890', message: 'Kapan saya bisa mengajukan?' },
    send: 'Kirim pesan',
    retry: 'Coba lagi',
    incomplete: 'Mohon lengkapi semua data!',
    success: 'Berhasil dikirim!',
    notSent: 'Pesan Anda belum terkirim.',
    thanks: 'Terima kasih, Budi. Pesan Anda sudah kami terima, dan kami akan menghubungi Anda.',
    kept: 'Teks yang Anda ketik tetap ada',
    reasons: {
      busy: 'Pesan Anda tidak dapat dikirim: server sedang sibuk.',
      offline: 'server kami tidak dapat dihubungi',
      timeout: 'server kami tidak menjawab dalam satu menit',
      rateLimited: 'Tunggu 2 menit, lalu coba lagi.',
      invalidMessage: 'server tidak menerima isi kolom Pesan. Periksa kolom itu; paling banyak 5.000 karakter.',
      unavailable: 'Pengiriman pesan tidak tersedia di situs ini',
    },
    privacy: 'menghapusnya setelah 180 hari',
  },
] as const;

type Language = (typeof LANGUAGES)[number];

async function openContact(page: Page, site: PorticoSite, language: Language) {
  await page.goto(`${site.url}/${language.query}#contact`);
  const panel = page.getByRole('tabpanel', { name: language.tab });
  await expect(panel.getByRole('button', { name: language.send })).toBeVisible();
  return panel;
}

async function fillIn(page: Page, language: Language) {
  const panel = page.getByRole('tabpanel', { name: language.tab });
  for (const key of ['name', 'telephone', 'message'] as const) await panel.getByLabel(language.fields[key]).fill(language.values[key]);
}

/** The lasting inline alert: the one with the form's own Try again inside, not the 1 s toast. */
function deliveryAlert(page: Page, language: Language) {
  return page
    .getByRole('tabpanel', { name: language.tab })
    .getByRole('alert')
    .filter({ has: page.getByRole('button', { name: language.retry }) });
}

async function expectTextKept(page: Page, language: Language) {
  const panel = page.getByRole('tabpanel', { name: language.tab });
  for (const key of ['name', 'telephone', 'message'] as const) {
    await expect(panel.getByLabel(language.fields[key])).toHaveValue(language.values[key]);
  }
}

test('an incomplete form shows the failure toast for about a second and posts nothing', async ({ page, site }) => {
  const posts = watchContactPosts(page);
  await installClock(page);
  await openContact(page, site, LANGUAGES[0]);
  await page.getByLabel('Name').fill('Asha');
  await page.getByLabel('Telephone').fill('   ');
  await page.getByLabel('Message').fill('Hello');
  await stopClock(page, page.getByRole('button', { name: 'Send message' }));
  await page.getByRole('button', { name: 'Send message' }).click();

  // The second is the page's own, on its stopped clock.
  const toast = page.getByRole('alert').filter({ hasText: 'Please provide complete information!' });
  await expectLastsExactly(
    page,
    1000,
    () => expect(toast).toHaveText('Please provide complete information!'),
    () => expect(toast).toBeHidden(),
  );
  expect(posts).toEqual([]);
});

for (const language of LANGUAGES) {
  test(`in ${language.name} on a phone, a complete form is posted as JSON to the page's own origin; Send stays busy until the server has stored it, then the success toast shows for about a second, the form is empty and the thank-you in view, clear of the toast`, async ({
    page,
    site,
  }) => {
    await serverStoresMessages(page);
    const posts = watchContactPosts(page);
    await installClock(page);
    await page.setViewportSize({ width: 360, height: 740 });
    const panel = await openContact(page, site, language);
    await expect(panel).toContainText(language.privacy);
    await fillIn(page, language);
    const send = panel.getByRole('button', { name: language.send });
    await stopClock(page, send);
    await send.click();

    // The name stays, so the button is found by it while busy.
    await expect(send).toHaveAttribute('aria-busy', 'true');
    await expect(send).toBeDisabled();
    await expect(page.getByRole('status')).toHaveCount(0);

    const toast = page.getByRole('status');
    await expect(toast).toHaveText(language.success);
    await expectHydrated(send);
    await expect(send).not.toHaveAttribute('aria-busy');
    const thanks = panel.getByText(language.thanks);
    await expect(thanks).toBeVisible();
    // On screen below the header, and above the toast, while the toast is there (the scroll is smooth).
    await expect
      .poll(() =>
        thanks.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const header = document.querySelector('header')!.getBoundingClientRect();
          const toastBox = document.querySelector('[role="status"]')!.getBoundingClientRect();
          return box.top >= header.bottom && box.bottom <= toastBox.top;
        }),
      )
      .toBe(true);
    for (const key of ['name', 'telephone', 'message'] as const) await expect(panel.getByLabel(language.fields[key])).toHaveValue('');
    // The second is the page's own, on its stopped clock.
    await expectLastsExactly(
      page,
      1000,
      () => expect(toast).toHaveText(language.success),
      () => expect(toast).toBeHidden(),
    );

    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(new URL(post!.url).origin).toBe(site.url);
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.body).toEqual({
      ...language.values,
      language: language.code,
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,100}$/),
      website: '',
    });
  });
}

const failures: { name: string; answer: ContactAnswer; reason: keyof Language['reasons'] }[] = [
  { name: 'a 503', answer: { status: 503, json: { error: 'messages cannot be stored just now; please try again' } }, reason: 'busy' },
  { name: 'a dropped connection', answer: { abort: true }, reason: 'offline' },
  { name: 'a 429 with Retry-After', answer: { status: 429, json: { error: 'too many' }, headers: { 'Retry-After': '120' } }, reason: 'rateLimited' },
  { name: 'a 400 naming the message', answer: { status: 400, json: { error: 'message is too long', field: 'message' } }, reason: 'invalidMessage' },
];

for (const language of LANGUAGES) {
  for (const failure of failures) {
    test(`in ${language.name}, ${failure.name} keeps the text and says why, lastingly, with ${language.retry}`, async ({ page, site }) => {
      await answerContact(page, failure.answer);
      await installClock(page);
      const panel = await openContact(page, site, language);
      await fillIn(page, language);
      // Stopped, so the 1 s toast is there for as long as the checks take.
      await stopClock(page, panel.getByRole('button', { name: language.send }));
      await panel.getByRole('button', { name: language.send }).click();

      await expect(page.getByRole('alert').filter({ hasText: language.notSent })).toBeVisible();
      const alert = deliveryAlert(page, language);
      await expect(alert).toContainText(language.reasons[failure.reason]);
      await expect(alert).toContainText(language.kept);
      await expect(page.getByRole('status')).toHaveCount(0);
      // The toast goes after a second; the inline alert stays.
      await page.clock.runFor(1000);
      await expect(page.getByRole('alert').filter({ hasText: language.notSent })).toBeHidden();
      await expect(alert).toBeVisible();
      await expectTextKept(page, language);
      await expect(panel.getByText(language.thanks)).toHaveCount(0);
    });
  }
}

test('a server that never answers is given up after 60 s: the text is kept and the reason shown, in both languages', async ({ page, site }) => {
  await answerContact(page, { hang: true });
  await page.clock.install();
  for (const language of LANGUAGES) {
    const panel = await openContact(page, site, language);
    await fillIn(page, language);
    const send = panel.getByRole('button', { name: language.send });
    // A press before Contact's code runs is held and sent once it does (first-interaction.spec): here the minute starts at the press.
    await expectHydrated(send);
    await send.click();
    await expect(send).toHaveAttribute('aria-busy', 'true');
    await page.clock.fastForward(59_000);
    await expect(send).toHaveAttribute('aria-busy', 'true');
    await page.clock.fastForward(1_500);
    await expect(deliveryAlert(page, language)).toContainText(language.reasons.timeout);
    await expectHydrated(send);
    await expectTextKept(page, language);
  }
});

test('Try again resends the same message with the same idempotency key, and only then shows the success; the keyboard focus stays on the buttons', async ({
  page,
  site,
}) => {
  const language = LANGUAGES[0];
  await answerContact(page, { status: 503, json: { error: 'store down' } }, { status: 201, json: { id: 'm-1' }, delayMs: 300 });
  const posts = watchContactPosts(page);
  await installClock(page);
  const panel = await openContact(page, site, language);
  await fillIn(page, language);
  const send = panel.getByRole('button', { name: 'Send message' });
  // Stopped, so the 1 s success toast is there for as long as the check takes.
  await stopClock(page, send);
  await send.focus();
  await page.keyboard.press('Enter');

  const retry = panel.getByRole('button', { name: 'Try again' });
  await expect(retry).toBeVisible();
  await expect(send).toBeFocused();
  await retry.focus();
  await page.keyboard.press('Enter');
  await expect(send).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('status')).toHaveText('Submit successfully！');
  await expect(retry).toHaveCount(0);
  await expect(send).toBeFocused();

  expect(posts).toHaveLength(2);
  expect(posts[1]!.body).toEqual(posts[0]!.body);
  // Delivered at last: the form is empty.
  await expect(panel.getByLabel(language.fields.message)).toHaveValue('');
});

test('a double click sends one message', async ({ page, site }) => {
  await serverStoresMessages(page);
  const posts = watchContactPosts(page);
  await installClock(page);
  const panel = await openContact(page, site, LANGUAGES[0]);
  await fillIn(page, LANGUAGES[0]);
  await stopClock(page, panel.getByRole('button', { name: 'Send message' }));
  await panel.getByRole('button', { name: 'Send message' }).dblclick();
  await expect(page.getByRole('status')).toHaveText('Submit successfully！');
  expect(posts).toHaveLength(1);
});

for (const [name, answer] of [
  ['405, as a static host answers a POST', { status: 405, body: 'Method Not Allowed' }],
  ['404', { status: 404, body: 'Not found' }],
  ['a page instead of JSON', { status: 200, body: '<!doctype html><title>Portico</title>', contentType: 'text/html' }],
] as const) {
  test(`with no server behind the site (${name}) the form says delivery is unavailable and keeps the text, in both languages`, async ({ page, site }) => {
    await answerContact(page, answer);
    for (const language of LANGUAGES) {
      const panel = await openContact(page, site, language);
      await fillIn(page, language);
      await panel.getByRole('button', { name: language.send }).click();
      await expect(deliveryAlert(page, language)).toContainText(language.reasons.unavailable);
      await expect(page.getByRole('status')).toHaveCount(0);
      await expectTextKept(page, language);
    }
  });
}

test("posting raises no CSP violation: connect-src allows the page's own origin", async ({ page, site }) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    Object.assign(window, { cspViolations: violations });
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await serverStoresMessages(page);
  await installClock(page);
  const response = await page.goto(`${site.url}/#contact`);
  expect(response?.headers()['content-security-policy']).toMatch(/connect-src 'self'/);
  await fillIn(page, LANGUAGES[0]);
  await stopClock(page, page.getByRole('button', { name: 'Send message' }));
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status')).toHaveText('Submit successfully！');
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});
