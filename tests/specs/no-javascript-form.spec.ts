import type { Browser } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { expect, test, workerPorts } from '../support/fixtures';
import { runServe, waitForOutput, type ServeProcess } from '../support/run-cli';

/**
 * The Contact form with JavaScript off (issue 49): `npm run serve`'s own
 * program with its embedded message store, in both languages. The form posts
 * itself to `/contact` and the server answers with the page: the errors in
 * the form's language with what was typed kept, or a 303 to the thank-you.
 * Checked to fail before the change: the button was disabled without script,
 * so no send reached the server.
 */

const LANGUAGES = [
  {
    search: '',
    type: '1',
    panel: 'Contact us',
    fields: { name: 'Name', telephone: 'Telephone', message: 'Message' },
    send: 'Send message',
    required: 'Please fill in this field.',
    incomplete: 'Please provide complete information!',
    thanks: 'Thank you. Your message has reached us, and we will get back to you.',
  },
  {
    search: '?type=2',
    type: '2',
    panel: 'Hubungi Kami',
    fields: { name: 'Nama', telephone: 'Nomor telepon', message: 'Pesan' },
    send: 'Kirim pesan',
    required: 'Mohon isi kolom ini.',
    incomplete: 'Mohon lengkapi semua data!',
    thanks: 'Terima kasih. Pesan Anda sudah kami terima, dan kami akan menghubungi Anda.',
  },
] as const;

let serve: ServeProcess;
let site: string;
let control: string;
const CONTROL_TOKEN = 'no-javascript-form-spec-token';

test.use({ javaScriptEnabled: false });

// One server for the file: its tests run in order in one worker (a failure does not skip the ones after it, as
// `serial` would); run in parallel, each worker's share of them started a server and a database of its own.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  const port = workerPorts(test.info().parallelIndex, 14);
  serve = runServe({ PORT: String(port), PORTICO_CONTROL_TOKEN: CONTROL_TOKEN });
  await waitForOutput(serve);
  site = `http://localhost:${port}`;
  control = `http://127.0.0.1:${port + 4}`;
});

test.afterAll(async () => {
  serve.child.kill('SIGTERM');
  await serve.exited;
});

/**
 * What axe finds on an answer as a browser without script shows it. axe is
 * script run in the page, which a context with JavaScript off never runs (it
 * hung there), so the answer's own bytes are opened again at its address in
 * a context with script on: its <script> elements taken out (nothing runs,
 * so nothing changes the markup) and its <noscript> contents kept (the
 * stylesheet that shows every panel), the stylesheets from the server.
 */
async function axeOnAnswer(browser: Browser, url: string, answer: string): Promise<string[]> {
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const page = await context.newPage();
    const inert = answer.replace(/<script\b[^>]*>[^]*?<\/script>/gi, '').replace(/<\/?noscript>/gi, '');
    await page.route(
      (address) => address.href === url,
      (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: inert }),
    );
    await page.goto(url);
    return await axeViolations(page);
  } finally {
    await context.close();
  }
}

/** The stored messages called `name`, as the lender's inbox lists them. */
async function storedNamed(name: string): Promise<number> {
  const answer = await fetch(`${control}/api/messages`, { headers: { Authorization: `Bearer ${CONTROL_TOKEN}` } });
  const messages = (await answer.json()) as { name: string }[];
  return messages.filter((message) => message.name === name).length;
}

for (const language of LANGUAGES) {
  test.describe(`without JavaScript, in ${language.panel}`, () => {
    test('an empty send answers the page with each error in its language, what was typed kept, and caches none of it', async ({ page, browser }) => {
      const served = await page.goto(`${site}/${language.search}#contact`);
      // The answer's words stay on the server (taken out of Contact's HTML when it was checked): the page does not carry them.
      expect(await served!.text()).not.toContain('data-form-texts');
      const panel = page.getByRole('tabpanel', { name: language.panel });
      // Typed HTML stays text: the field gets it back as its value.
      const typed = `<b>Asha</b> "Tanpa-Skrip-${language.type}" & co`;
      await panel.getByLabel(language.fields.name).fill(typed);
      await panel.getByLabel(language.fields.telephone).fill('   ');
      const answer = page.waitForResponse((response) => response.url() === `${site}/contact` && response.request().method() === 'POST');
      await panel.getByRole('button', { name: language.send }).click();

      await expect(page).toHaveURL(`${site}/contact#contact`);
      expect(await axeOnAnswer(browser, `${site}/contact`, await (await answer).text())).toEqual([]);
      const answered = page.getByRole('tabpanel', { name: language.panel });
      await expect(answered.getByLabel(language.fields.name)).toHaveValue(typed);
      await expect(answered.getByLabel(language.fields.name)).not.toHaveAttribute('aria-invalid');
      for (const field of [language.fields.telephone, language.fields.message]) {
        await expect(answered.getByLabel(field)).toHaveAttribute('aria-invalid', 'true');
        await expect(answered.getByLabel(field)).toHaveAccessibleDescription(language.required);
      }
      await expect(answered.getByRole('alert')).toHaveText(language.incomplete);
      await expect(page.locator('b', { hasText: 'Asha' })).toHaveCount(0);
      // The next visitor's page holds nothing of it.
      for (const path of ['/', `/${language.search}`, `/contact${language.search}`]) {
        expect(await (await fetch(`${site}${path}`)).text()).not.toContain(`Tanpa-Skrip-${language.type}`);
      }
    });

    test('a complete send shows the thank-you at an address holding nothing typed, and a reload stores nothing twice', async ({ page, browser }) => {
      const name = `Asha No-Script-${language.type}`;
      await page.goto(`${site}/${language.search}#contact`);
      const panel = page.getByRole('tabpanel', { name: language.panel });
      await panel.getByLabel(language.fields.name).fill(name);
      await panel.getByLabel(language.fields.telephone).fill('+62 812 3456 7890');
      await panel.getByLabel(language.fields.message).fill('Line one.\nLine two.');
      await panel.getByRole('button', { name: language.send }).click();

      await expect(page).toHaveURL(`${site}/contact?sent=1&type=${language.type}#contact`);
      await expect(page.getByRole('status')).toHaveText(language.thanks);
      expect(await storedNamed(name)).toBe(1);
      const reloaded = await page.reload();
      await expect(page.getByRole('status')).toHaveText(language.thanks);
      expect(await storedNamed(name)).toBe(1);
      const thanks = `${site}/contact?sent=1&type=${language.type}`;
      expect(await axeOnAnswer(browser, thanks, await reloaded!.text())).toEqual([]);
    });
  });
}
