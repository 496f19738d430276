import { networkInterfaces } from 'node:os';
import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';
import { untilSettled } from '../support/section-settled';

// Issue 49: a page reached by an IPv6 literal, its remotes on IPv6 literals
// too (the default config.json names them on the visitor's host), which a
// CSP source cannot name: Chromium drops `http://[::1]:8083` as invalid, so
// Contact's code was refused and it showed its alert. The page names them
// by scheme and port (`cspSource`, docs/decisions/serving-and-security.md).
// The page is rendered in the browser here (every section's code comes from
// its IPv6 origin), so Home and About are granted script, as such a
// deployment grants them. Port slot 10.

// A machine whose loopback has no IPv6 address cannot reach such a page at all.
const ipv6Loopback = Object.values(networkInterfaces()).some((addresses) => addresses?.some(({ address }) => address === '::1'));
test.skip(!ipv6Loopback, 'this machine has no IPv6 loopback (::1) to reach the page by');

test('a page reached at http://[::1]:PORT/ loads every section from [::1], Contact hydrated, with no CSP refusal', async ({ page }, testInfo) => {
  const port = workerPorts(testInfo.parallelIndex, 10);
  const remote = (offset: number) => `http://[::1]:${port + offset}/mf-manifest.json`;
  const configPath = writeConfig(port, {
    remotes: { home: remote(1), about: remote(2), contact: remote(3) },
    sections: { home: { interactive: true }, about: { interactive: true } },
  });
  const site = await serve(port, configPath);
  try {
    const refused: string[] = [];
    page.on('console', (message) => /Content Security Policy|invalid source/i.test(message.text()) && refused.push(message.text()));
    const answer = await page.goto(`http://[::1]:${port}/#contact`);
    expect(answer!.headers()['content-security-policy']).toContain(`http://*:${port + 3}`);
    expect(answer!.headers()['content-security-policy']).not.toContain('[::1]');

    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    await untilSettled(contact, 'contact');
    await expect(contact.getByRole('alert')).toHaveCount(0);
    await expect(contact.getByRole('button', { name: 'Send message' })).toBeEnabled();
    for (const name of ['Home', 'About Us']) {
      await page.getByRole('tab', { name }).click();
      const panel = page.getByRole('tabpanel', { name });
      await expect(panel.getByRole('heading', { level: 2 }).first()).toBeVisible();
      await expect(panel.getByRole('alert')).toHaveCount(0);
    }
    expect(refused).toEqual([]);
  } finally {
    await site.close();
  }
});
