import { expect, test } from '../support/fixtures';

test.beforeEach(async ({ page, site }) => {
  await page.goto(`${site.url}/#contact`);
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
});

test('an incomplete form shows the failure toast for about a second', async ({ page }) => {
  await page.getByLabel('Name').fill('Asha');
  await page.getByLabel('Telephone').fill('   ');
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send message' }).click();

  const toast = page.getByRole('alert').filter({ hasText: 'Please provide complete information!' });
  await expect(toast).toHaveText('Please provide complete information!');
  const shownAt = Date.now();
  await expect(toast).toBeHidden({ timeout: 3000 });
  expect(Date.now() - shownAt).toBeGreaterThan(700);
});

test('a complete form shows the success toast for about a second and sends nothing', async ({ page }) => {
  await page.waitForLoadState('networkidle');
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));

  await page.getByLabel('Name').fill('Asha');
  await page.getByLabel('Telephone').fill('+91 98765 43210');
  await page.getByLabel('Message').fill('When can I apply?');
  await page.getByRole('button', { name: 'Send message' }).click();

  const toast = page.getByRole('status');
  await expect(toast).toHaveText('Submit successfully！');
  const shownAt = Date.now();
  await expect(toast).toBeHidden({ timeout: 3000 });
  expect(Date.now() - shownAt).toBeGreaterThan(700);
  expect(requests).toEqual([]);
});
