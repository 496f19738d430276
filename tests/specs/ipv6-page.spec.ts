import { expect, test } from '../support/fixtures';
import { untilSettled } from '../support/section-settled';

// Issue 49: a page reached by an IPv6 literal. The default config.json names
// the remotes on the visitor's host, so their origins are IPv6 literals too,
// which a CSP source cannot name (Chromium drops `http://[::1]:8083` as
// invalid): Contact's code was refused and it showed its alert. The page
// names them by scheme and port (`cspSource`, docs/decisions/serving-and-security.md).

test('a page reached at http://[::1]:PORT/ loads every section, Contact hydrated, with no CSP refusal', async ({ page, site }) => {
  const refused: string[] = [];
  page.on('console', (message) => /Content Security Policy|invalid source/i.test(message.text()) && refused.push(message.text()));
  const address = `http://[::1]:${new URL(site.url).port}/`;
  const answer = await page.goto(`${address}#contact`);
  expect(answer!.headers()['content-security-policy']).not.toContain('[::1]');

  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await untilSettled(contact, 'contact');
  await expect(contact.getByRole('alert')).toHaveCount(0);
  await expect(contact.getByRole('button', { name: 'Send message' })).toBeEnabled();
  for (const name of ['Home', 'About Us']) {
    await page.getByRole('tab', { name }).click();
    await expect(page.getByRole('tabpanel', { name }).getByRole('heading', { level: 2 }).first()).toBeVisible();
    await expect(page.getByRole('tabpanel', { name }).getByRole('alert')).toHaveCount(0);
  }
  expect(refused).toEqual([]);
});
