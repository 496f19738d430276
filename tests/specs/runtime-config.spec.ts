import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';

const MARKUP = '<img src=x onerror=alert(1)>';

test('title, brand and footer come from the PORTICO_CONFIG file, markup shown as text', async ({ page }, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 1);
  const configPath = writeConfig(basePort, {
    comName: `Acme ${MARKUP}`,
    email: 'help@acme.example',
    address: `1 Main St ${MARKUP}`,
    copyright: `© Acme ${MARKUP}`,
  });
  const site = await serve(basePort, configPath);
  try {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(site.url);

    await expect(page).toHaveTitle(`Acme ${MARKUP}`);
    await expect(page.getByRole('navigation')).toContainText(`Acme ${MARKUP}`);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`Company NameAcme ${MARKUP}`);
    await expect(footer.getByRole('link', { name: 'help@acme.example' })).toHaveAttribute('href', 'mailto:help@acme.example');
    await expect(footer).toContainText(`Contact Address1 Main St ${MARKUP}`);
    await expect(footer).toContainText(`© Acme ${MARKUP}`);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toBe(0);
  } finally {
    await site.close();
  }
});

test('an edit to the PORTICO_CONFIG file shows on the next page load, with no rebuild or restart', async ({ page }, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 2);
  const configPath = writeConfig(basePort, { comName: 'Before' });
  const site = await serve(basePort, configPath);
  try {
    await page.goto(site.url);
    await expect(page).toHaveTitle('Before');
    writeConfig.rewrite(configPath, { comName: 'After' });
    await page.reload();
    await expect(page).toHaveTitle('After');
  } finally {
    await site.close();
  }
});

test('a bad field in config.json is named, and the rest of the page still works', async ({ page }, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 3);
  const site = await serve(basePort, writeConfig(basePort, { email: 42 }));
  try {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(site.url);
    await expect(page.getByRole('complementary', { name: 'Configuration' })).toContainText('email');
    await expect(page.getByRole('contentinfo')).toContainText('Contact EmailNot configured');
    await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
    // Logged by the script, which starts after the server-rendered page is painted.
    await expect.poll(() => errors.join('\n')).toContain('email: expected string, got number');
  } finally {
    await site.close();
  }
});
