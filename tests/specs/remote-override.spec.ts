import { SECTION_MANIFEST_PATH } from '@portico/contract/manifest-relay';
import type { Page } from '@playwright/test';
import { expect, test, type Lab } from '../support/fault-lab';

// Contact is configured on the site's own remote; the fault server, with no
// fault, is a second real build of Contact on another origin: the candidate.

function configureContactOnSite(lab: Lab, allowedRemoteOrigins: string[]) {
  lab.configure({
    remotes: {
      home: `${lab.site.origin(1)}/mf-manifest.json`,
      about: `${lab.site.origin(2)}/mf-manifest.json`,
      contact: `${lab.site.origin(3)}/mf-manifest.json`,
    },
    allowedRemoteOrigins,
  });
}

/** The origin of each manifest the page reads (through its own origin's relay, `/section-manifest/<id>?url=`). */
function watchManifests(page: Page): string[] {
  const origins: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(SECTION_MANIFEST_PATH)) origins.push(new URL(url.searchParams.get('url') ?? '').origin);
  });
  return origins;
}

function watchWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  return warnings;
}

const contactForm = (page: Page) => page.getByRole('tabpanel', { name: 'Contact us' }).getByRole('button', { name: 'Send message' });
const overrideNotice = (page: Page) => page.getByRole('complementary', { name: 'Remote override' });

test('?remote.contact= from an allowed origin loads Contact from there for this visit only, and says so', async ({ page, lab }) => {
  configureContactOnSite(lab, [lab.faults.origin]);
  const manifests = watchManifests(page);
  await page.goto(`${lab.site.url}/?remote.contact=${encodeURIComponent(lab.faults.manifestUrl)}#contact`);

  await expect(contactForm(page)).toBeVisible();
  expect(lab.faults.requests).toEqual(expect.arrayContaining(['/mf-manifest.json', '/remoteEntry.js']));
  expect(manifests).not.toContain(lab.site.origin(3));

  const notice = overrideNotice(page);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('override');
  await expect(notice).toContainText(`the Contact us section comes from ${lab.faults.manifestUrl}`);
  // Not a live region: nothing announces it, and it cannot collide with the toasts.
  await expect(page.locator('[role="status"], [role="alert"], [aria-live]')).toHaveCount(0);

  // Nothing is kept: without the parameter the configured remote is back.
  expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  expect(await page.context().cookies()).toEqual([]);
  lab.faults.clear();
  await page.goto(`${lab.site.url}/#contact`);
  await expect(contactForm(page)).toBeVisible();
  await expect(overrideNotice(page)).toHaveCount(0);
  expect(lab.faults.requests).toEqual([]);
  expect(manifests.at(-1)).toBe(lab.site.origin(3));
});

test('an override from an origin that is not allowed is refused with a warning, and nothing is requested from it', async ({ page, lab }) => {
  configureContactOnSite(lab, ['https://preview.example']);
  const warnings = watchWarnings(page);
  const manifests = watchManifests(page);
  await page.goto(`${lab.site.url}/?remote.contact=${encodeURIComponent(lab.faults.manifestUrl)}#contact`);

  await expect(contactForm(page)).toBeVisible();
  expect(manifests).toContain(lab.site.origin(3));
  expect(lab.faults.requests).toEqual([]);
  expect(manifests).not.toContain(lab.faults.origin);
  await expect(overrideNotice(page)).toHaveCount(0);
  // Said once the page is idle after its first paint (a server-rendered page's page script).
  await expect
    .poll(() => warnings)
    .toContainEqual(
      `Portico: refused the override remote.contact=${lab.faults.manifestUrl} because its origin ${lab.faults.origin} ` +
        "is not listed in config.json's allowedRemoteOrigins; the configured URL is used.",
    );
});

for (const [what, value, reason] of [
  ['a malformed URL', 'http//127.0.0.1/mf-manifest.json', 'it is not an absolute URL'],
  ['a javascript: URL', 'javascript:alert(document.domain)', 'only http and https URLs may be used, not javascript:'],
  ['a data: URL', 'data:application/json,{"metaData":{}}', 'only http and https URLs may be used, not data:'],
] as const) {
  test(`${what} is refused with a warning and the configured Contact is used`, async ({ page, lab }) => {
    configureContactOnSite(lab, [lab.faults.origin]);
    const warnings = watchWarnings(page);
    const manifests = watchManifests(page);
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(`${lab.site.url}/?remote.contact=${encodeURIComponent(value)}#contact`);

    await expect(contactForm(page)).toBeVisible();
    expect(manifests).toEqual(expect.arrayContaining([lab.site.origin(3)]));
    expect(lab.faults.requests).toEqual([]);
    await expect(overrideNotice(page)).toHaveCount(0);
    await expect.poll(() => warnings).toContainEqual(expect.stringContaining(`refused the override remote.contact=${value} because ${reason}`));
    expect(dialogs).toBe(0);
  });
}
