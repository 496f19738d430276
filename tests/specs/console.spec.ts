import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { axeViolations } from '../support/axe';
import { apiSession, consoleOrigin, signIn } from '../support/console';
import { LIVE_MS, startServer, stop, TOKEN, visitContact } from '../support/console-server';
import { expect, test } from '../support/fixtures';

// The operator console (docs/console.md) in real browsers against `npm run serve`: the server and its helpers in ../support/console-server.ts.

/** Confirms the dialog a button opens, after checking what it says visitors will get. */
async function confirm(page: Page, button: string, says: RegExp) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', { name: button });
  await expect(dialog).toContainText(says);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
}

test('an integrator publishes, previews, activates, rolls back, starts a canary and watches real visits arrive on its chart, and aborts it; a second browser sees each change within 2 s', async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const server = await startServer(testInfo.parallelIndex);
  const { port, upload, release } = server;
  // Two browsers: contexts of their own, each with its own cookies (axe also needs a page of a context).
  const mine = await (await browser.newContext()).newPage();
  const theirs = await (await browser.newContext()).newPage();
  // The console runs under its strict CSP: anything it refused would be said on the page's console.
  const refused: string[] = [];
  for (const page of [mine, theirs]) page.on('console', (message) => /Content Security Policy/i.test(message.text()) && refused.push(message.text()));
  try {
    const first = /contact-\d+/.exec(await release('publish', 'contact', `http://localhost:${port + 3}/mf-manifest.json`))![0];
    await release('activate', 'contact', first);
    await signIn(mine, port, TOKEN);
    await signIn(theirs, port, TOKEN);
    await theirs.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Contact us' }).click();
    const theirReleases = theirs.getByRole('table', { name: 'Releases: Contact us' });

    await mine.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Contact us' }).click();
    await expect(mine.getByRole('heading', { name: 'Contact us', level: 1 })).toBeVisible();
    await mine.getByRole('textbox', { name: 'Manifest URL' }).fill(`${upload.url}mf-manifest.json`);
    await mine.getByRole('button', { name: 'Publish', exact: true }).click();
    const second = /contact-\d+/.exec((await mine.getByText(/^Published contact-\d+/).textContent())!)![0];
    await expect(theirReleases.getByRole('row').filter({ hasText: second })).toBeVisible({ timeout: LIVE_MS });

    await mine.getByRole('button', { name: `Preview ${second}` }).click();
    await expect(mine.getByRole('button', { name: 'Copy preview link' })).toBeVisible();
    const link = await mine.locator('.preview a').getAttribute('href');
    expect(link).toContain(`localhost:${port}`);

    await confirm(mine, `Activate ${second}`, new RegExp(`Every visitor of Contact us will get ${second}`));
    await expect(mine.getByText(`${second} is active`)).toBeVisible();
    await expect(theirReleases.getByRole('row').filter({ hasText: second })).toContainText('active', { timeout: LIVE_MS });

    await confirm(mine, 'Roll back', new RegExp(`will get ${first} instead of ${second}`));
    await expect(mine.getByText(`Rolled back: visitors get ${first}.`)).toBeVisible();
    await expect(theirReleases.getByRole('row').filter({ hasText: first })).toContainText('active', { timeout: LIVE_MS });

    await mine.getByRole('combobox', { name: 'Release', exact: true }).selectOption(second);
    await mine.getByRole('spinbutton', { name: 'Share of visitors (%)' }).fill('50');
    await confirm(mine, 'Start canary', new RegExp(`50 % of the visitors of Contact us will get ${second}; the others keep ${first}`));
    // As for each change above: the 2 s run from when the server has made it (the browser that asked sees it), not from the click.
    await expect(mine.getByRole('button', { name: 'Abort canary' })).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'Abort canary' })).toBeVisible({ timeout: LIVE_MS });

    // Real visits, half of them to the candidate, arrive on the canary's chart (its name sums each line up in words).
    const visitsChart = theirs.getByRole('img', { name: /^Visits per hour\./ });
    const bothOnChart = async () => {
      const summary = (await visitsChart.count()) > 0 ? ((await visitsChart.getAttribute('aria-label')) ?? '') : '';
      return [first, second].every((shown) => new RegExp(`${shown}: [1-9]`).test(summary));
    };
    const sawSecond = new Set<boolean>();
    for (let visits = 0; visits < 24; visits += 3) {
      for (const saw of await Promise.all([0, 1, 2].map(() => visitContact(browser, port)))) sawSecond.add(saw);
      // Until both releases have had visits (three visits at 50 % all go to one release one time in four), then until
      // the chart shows them: their reports arrive after the visits (flushed every 2 s), so visiting on meanwhile only
      // cost visits.
      if (sawSecond.size < 2) continue;
      try {
        await expect.poll(bothOnChart, { timeout: 10_000 }).toBe(true);
        break;
      } catch {
        // Not on the chart: a report lost on the way; more visits.
      }
    }
    for (const shown of [first, second]) await expect(visitsChart).toHaveAttribute('aria-label', new RegExp(`${shown}: [1-9]`), { timeout: 10_000 });

    await confirm(mine, 'Abort canary', new RegExp(`will get ${first} again, and none ${second}`));
    await expect(mine.getByText(`Canary aborted: every visitor gets ${first}.`)).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'Start canary' })).toBeVisible({ timeout: LIVE_MS });

    // Every screen, in both languages, for axe.
    for (const language of ['English', 'Bahasa Indonesia']) {
      await mine.getByRole('button', { name: language }).click();
      for (const screen of ['', '/sections/contact', '/audit', '/tokens', '/alerts', '/inbox']) {
        await mine.goto(`${consoleOrigin(port)}/#${screen}`);
        await expect(mine.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await axeViolations(mine), `${language} ${screen || '/'}`).toEqual([]);
      }
    }
    await mine.getByRole('button', { name: /Sign out|Keluar/ }).click();
    await expect(mine.getByRole('textbox', { name: 'Token' })).toBeVisible();
    expect(await axeViolations(mine), 'sign-in, Bahasa Indonesia').toEqual([]);
    await mine.getByRole('button', { name: 'English' }).click();
    await expect(mine.getByRole('heading', { name: 'Sign in to the Portico console' })).toBeVisible();
    expect(await axeViolations(mine), 'sign-in, English').toEqual([]);
    expect(refused).toEqual([]);
  } finally {
    await mine.context().close();
    await theirs.context().close();
    await stop(server);
  }
});

// The three below change nothing the others read (each makes its own token; only the first publishes): one server for them.
test.describe('sessions and the inbox', () => {
  // In order in one worker, one server; a failure does not skip the ones after it (as 'serial' would).
  test.describe.configure({ mode: 'default' });
  let server: Awaited<ReturnType<typeof startServer>>;
  // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
  test.beforeAll(async ({}, testInfo) => {
    server = await startServer(testInfo.parallelIndex);
  });
  test.afterAll(async () => {
    if (server) await stop(server);
  });
  test.beforeEach(() => test.setTimeout(90_000));

  test("a Home token sees only Home; its session is refused on Contact, and a request from the page's own origin with the cookie reads and changes nothing; an ended session goes back to sign-in", async ({
    page,
    request,
  }) => {
    const { port, release } = server;
    const created = await release('token', 'create', 'home-team', '--section', 'home');
    const homeToken = /^[A-Za-z0-9_-]{40,}$/m.exec(created)![0];
    const contactFirst = /contact-\d+/.exec(await release('publish', 'contact', `http://localhost:${port + 3}/mf-manifest.json`))![0];

    await signIn(page, port, homeToken);
    const navigation = page.getByRole('navigation', { name: 'Console' });
    await expect(navigation.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Contact us' })).toHaveCount(0);
    await expect(navigation.getByRole('link', { name: 'Tokens' })).toHaveCount(0);
    // A reload keeps the session (the tab kept its anti-forgery value and asks who it is with it), and Contact's page is not there for Home.
    await page.goto(`${consoleOrigin(port)}/#/sections/contact`);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Contact us' })).toHaveCount(0);

    // The same token's session, used by hand: Contact is refused whatever is sent.
    const csrf = await apiSession(request, port, homeToken);
    const asConsole = { 'X-Portico-CSRF': csrf, Origin: consoleOrigin(port) };
    expect((await request.post(`${consoleOrigin(port)}/api/sections/contact/active`, { data: { release: contactFirst }, headers: asConsole })).status()).toBe(
      403,
    );
    expect((await request.get(`${consoleOrigin(port)}/api/releases?section=contact`, { headers: asConsole })).status()).toBe(403);

    // The page's own origin (where section code runs) with the cookie and even the CSRF value: nothing read, nothing changed.
    const integratorCsrf = await apiSession(request, port, TOKEN);
    const fromPage = { 'X-Portico-CSRF': integratorCsrf, Origin: `http://localhost:${port}`, 'Sec-Fetch-Site': 'same-site' };
    expect((await request.get(`${consoleOrigin(port)}/api/sections`, { headers: fromPage })).status()).toBe(403);
    expect((await request.post(`${consoleOrigin(port)}/api/sections/contact/active`, { data: { release: contactFirst }, headers: fromPage })).status()).toBe(
      403,
    );
    expect(await release('status')).not.toMatch(new RegExp(`contact\\s+${contactFirst}\\s`));

    // The page's session ended elsewhere (its token revoked): the event stream ends with it, its reopening is refused, and the page goes to sign-in.
    await release('token', 'revoke', 'home-team');
    await expect(page.getByRole('textbox', { name: 'Token' })).toBeVisible({ timeout: 5000 });
    await expect(page.getByText('Your session has ended. Sign in again to go on.')).toBeVisible();
  });

  test("a console cookie set by script on the page's origin signs nothing in, and one planted beside the operator's own session does not displace it", async ({
    page,
    request,
  }) => {
    const { port, release } = server;
    // A session of the attacker's own (its token is any section team's), made through the API as any script can.
    const created = await release('token', 'create', 'home-fix', '--section', 'home');
    await apiSession(request, port, /^[A-Za-z0-9_-]{40,}$/m.exec(created)![0]);
    const planted = (await request.storageState()).cookies.find((cookie) => cookie.name === 'portico_console')!.value;
    const plant = async (cookiePath: string) => {
      // Script on the page's origin, where section code runs: cookies do not separate ports, so the console's port gets it too.
      await page.goto(`http://localhost:${port}/`);
      await page.evaluate(([value, where]) => (document.cookie = `portico_console=${value}; path=${where}`), [planted, cookiePath]);
      expect((await page.context().cookies(`${consoleOrigin(port)}/api/session`)).map((cookie) => cookie.value)).toContain(planted);
      await page.goto(`${consoleOrigin(port)}/`);
    };

    await plant('/');
    await expect(page.getByRole('textbox', { name: 'Token' })).toBeVisible();
    await expect(page.getByText('Signed in as home-fix')).toHaveCount(0);

    // The operator signs in; the page plants its session again on a longer path (sent first): the console stays the operator's.
    await signIn(page, port, TOKEN);
    await plant('/api');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByText('Signed in as environment')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Tokens' })).toBeVisible();
  });

  test('a messages token reads, exports and deletes a stored message, and the audit shows each', async ({ page, request }) => {
    const { port, release } = server;
    // Dewi's message, and two that try the inbox's display: a name that would read "nimda evil", and one of 200 characters.
    const longName = `Budi${'x'.repeat(196)}`;
    for (const [index, name] of ['\u202E\u2066evil\u2069 admin', longName, 'Dewi Lestari'].entries()) {
      const stored = await request.post(`http://localhost:${port}/api/contact`, {
        headers: { Origin: `http://localhost:${port}` },
        data: {
          name,
          telephone: '+62 812 5555 0101',
          message: index === 2 ? 'Berapa bunga pinjaman 6 bulan?' : `Halo${'!'.repeat(300)}`,
          language: 'id',
          idempotencyKey: `console-spec-000${index}`,
          website: '',
        },
      });
      expect(stored.status()).toBe(201);
    }
    const created = await release('token', 'create', 'lender-staff', '--scope', 'messages');
    const messagesToken = /^[A-Za-z0-9_-]{40,}$/m.exec(created)![0];

    await signIn(page, port, messagesToken);
    await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link')).toHaveText(['Inbox']);
    const disguised = page.getByRole('button', { name: 'Open message from ⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin' });
    await expect(disguised).toHaveText('⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin');
    await expect(page.getByRole('button', { name: `Open message from ${longName}` })).toHaveText(`${longName.slice(0, 40)}…`);
    // Every column in view: the last header's right edge inside the window, and the table not wider than its box.
    const delivery = (await page.getByRole('columnheader', { name: 'Delivery' }).boundingBox())!;
    expect(delivery.x + delivery.width).toBeLessThanOrEqual(await page.evaluate(() => document.documentElement.clientWidth));
    expect(await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth)).toBe(0);

    await page.getByRole('searchbox', { name: 'Search by name, telephone or text' }).fill('bunga');
    await page.getByRole('search').getByRole('button', { name: 'Show' }).click();
    await page.getByRole('button', { name: 'Open message from Dewi Lestari' }).click();
    await expect(page.getByRole('article', { name: 'Dewi Lestari' })).toContainText('Berapa bunga pinjaman 6 bulan?');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export as CSV' }).click();
    // The file is CSV that a CSV parser reads (issue 45: it was JSON named .csv), the search applied, each cell safe in a spreadsheet.
    expect((await download).suggestedFilename()).toBe('messages.csv');
    const [header, ...rows] = parse(readFileSync(await (await download).path()), { record_delimiter: '\r\n' }) as string[][];
    expect(header).toEqual(['id', 'receivedAt', 'language', 'name', 'telephone', 'message', 'delivery', 'attempts', 'deliveredAt', 'lastError']);
    expect(rows.map((row) => row.slice(3, 6))).toEqual([['Dewi Lestari', "'+62 812 5555 0101", 'Berapa bunga pinjaman 6 bulan?']]);

    await page.getByRole('button', { name: 'Delete message' }).click();
    await page.getByRole('dialog', { name: 'Delete message' }).getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('The message from \u2068Dewi Lestari\u2069 is deleted.')).toBeVisible();
    await expect(page.getByText('No message matches “bunga”.')).toBeVisible();

    const audit = await release('audit');
    for (const action of ['message-read', 'message-export', 'message-delete']) expect(audit).toContain(action);
  });
});
