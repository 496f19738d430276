import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverStoresMessages, watchContactPosts } from '../support/contact-api';
import { startFaultServer, type FaultServer } from '../support/fault-server';
import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';
import { expectHydrated } from '../support/page-clock';
import { REPO_ROOT } from '../support/paths';

// Issue 50: a server-rendered page whose interactive sections all have an
// island script loads them through the islands' entry, without Module
// Federation's runtime; the script is checked against its hash like any
// other; a section built without one sends the page back to the federated
// entry, where it still works.

const contactIsland = () =>
  (JSON.parse(readFileSync(path.join(REPO_ROOT, 'remote-contact/dist/mf-manifest.json'), 'utf8')) as { metaData: { island: { name: string } } }).metaData.island
    .name;

/** Contact's manifest as a build from before island scripts. */
const withoutIsland = (text: string) => {
  const manifest = JSON.parse(text) as { metaData: Record<string, unknown> };
  delete manifest.metaData.island;
  return JSON.stringify(manifest);
};

let faults: FaultServer;
test.beforeEach(async () => {
  faults = await startFaultServer();
});
test.afterEach(async () => {
  await faults.close();
});

/** The site server-rendered, with Contact served by the fault server (its node build and its island script from there). */
async function siteWithContactOnFaults(parallelIndex: number) {
  test.slow();
  const port = workerPorts(parallelIndex, 2);
  const config = writeConfig(port, {
    remotes: { home: `http://localhost:${port + 1}/mf-manifest.json`, about: `http://localhost:${port + 2}/mf-manifest.json`, contact: faults.manifestUrl },
    allowedRemoteOrigins: [`http://localhost:${port + 1}`, `http://localhost:${port + 2}`, faults.origin],
  });
  const site = await serve(port, config);
  // A server just started may leave Contact to the browser while its worker warms; the rule here is about the server's form.
  await expect.poll(async () => (await fetch(site.url)).text(), { timeout: 30_000 }).toContain('>Send message</button>');
  return site;
}

test('an island script altered after the build is refused by its hash: Contact shows its alert with Try again, the rest of the page works, and Try again brings the form', async ({
  page,
}, testInfo) => {
  const site = await siteWithContactOnFaults(testInfo.parallelIndex);
  try {
    faults.fault(`/${contactIsland()}`, { body: 'document.title = "tampered";', contentType: 'text/javascript' });
    await page.goto(`${site.url}/#contact`);
    expect(await page.locator('script[data-src]').getAttribute('data-src')).toMatch(/^islands\.[0-9a-f]{10}\.js$/);
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    await expect(contact.getByRole('alert')).toContainText('The Contact us section could not be loaded.', { timeout: 15_000 });
    await expect(page).not.toHaveTitle('tampered');
    await page.getByRole('tab', { name: 'About Us' }).click();
    await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('Portico Credit offers');
    faults.clear();
    await page.getByRole('tab', { name: 'Contact us' }).click();
    await contact.getByRole('button', { name: 'Try again' }).click();
    await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
  } finally {
    await site.close();
  }
});

test('a section built before island scripts: the page loads its sections through Module Federation, and the form is sent', async ({ page }, testInfo) => {
  const site = await siteWithContactOnFaults(testInfo.parallelIndex);
  try {
    faults.fault('/mf-manifest.json', { rewrite: withoutIsland });
    await expect.poll(async () => /<script data-src="main\.[0-9a-f]{10}\.js">/.test(await (await fetch(site.url)).text()), { timeout: 30_000 }).toBe(true);
    await serverStoresMessages(page);
    const posts = watchContactPosts(page);
    await page.goto(`${site.url}/#contact`);
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    await contact.getByLabel('Name').fill('Budi');
    await contact.getByLabel('Telephone').fill('+62 812 3456 7890');
    await contact.getByLabel('Message').fill('Through the federated entry.');
    await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
    await contact.getByRole('button', { name: 'Send message' }).click();
    await expect(contact).toContainText('Thank you, Budi.');
    expect(posts).toHaveLength(1);
    expect(faults.requests).toContain('/remoteEntry.js');
    expect(faults.requests.filter((request) => request.startsWith('/island'))).toEqual([]);
  } finally {
    await site.close();
  }
});
