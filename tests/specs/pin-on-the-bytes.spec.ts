import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fault-lab';
import { REPO_ROOT } from '../support/paths';

// An attacker who controls the remote's server answers the page's manifest
// requests differently: one answer is the genuine, pinned manifest; the other
// names a modified chunk (which sets document.title) with that chunk's real
// hash, so the browser's own integrity check would pass it. The pin in
// config.json must hold on the bytes Module Federation runs, whichever
// request gets which answer.

const dist = path.join(REPO_ROOT, 'remote-contact/dist');
const sri = (content: string) => `sha384-${createHash('sha384').update(content).digest('base64')}`;
const EVIL_CHUNK = 'evil-section-chunk.js';

interface Manifest {
  metaData: { integrity?: Record<string, string> };
  exposes: { assets: { js: { sync: string[] } } }[];
}

function manifests(): { genuine: string; tampered: string; evilChunk: string } {
  const genuine = readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8');
  const manifest = JSON.parse(genuine) as Manifest;
  const sync = manifest.exposes[0]!.assets.js.sync;
  const chunk = sync[0]!;
  const evilChunk = `${readFileSync(path.join(dist, chunk), 'utf8')}\n;document.title = "tampered";\n`;
  sync[0] = EVIL_CHUNK;
  const integrity = manifest.metaData.integrity ?? {};
  delete integrity[chunk];
  manifest.metaData.integrity = { ...integrity, [EVIL_CHUNK]: sri(evilChunk) };
  return { genuine, tampered: JSON.stringify(manifest), evilChunk };
}

/** Every value any page of this test gives document.title, recorded before the page's own scripts run. */
async function recordTitles(page: Page): Promise<string[]> {
  const titles: string[] = [];
  await page.exposeFunction('recordTitle', (value: string) => titles.push(value));
  await page.addInitScript(() => {
    const own = Object.getOwnPropertyDescriptor(Document.prototype, 'title')!;
    Object.defineProperty(Document.prototype, 'title', {
      ...own,
      set(value: string) {
        void (window as unknown as { recordTitle: (value: string) => Promise<void> }).recordTitle(value);
        own.set!.call(this, value);
      },
    });
  });
  return titles;
}

/** The alert's reason for a manifest its pin refuses (the console names the pin). */
const REFUSED = 'Its files are not the version this site approved, so they were not run.';

for (const order of ['tampered then genuine', 'genuine then tampered'] as const) {
  test(`a pinned manifest served ${order}: only the pinned bytes run, or the section is refused`, async ({ page, lab }) => {
    const { genuine, tampered, evilChunk } = manifests();
    lab.faults.fault('/mf-manifest.json', {
      bodies: order === 'tampered then genuine' ? [tampered, genuine] : [genuine, tampered],
      contentType: 'application/json',
    });
    lab.faults.fault(`/${EVIL_CHUNK}`, { body: evilChunk, contentType: 'text/javascript' });
    lab.configure({ remoteIntegrity: { contact: sri(genuine) } });
    const titles = await recordTitles(page);
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    const form = contact.getByRole('button', { name: 'Send message' });
    const alert = contact.getByRole('alert');

    await page.goto(`${lab.site.url}/#contact`);
    await expect(form.or(alert)).toBeVisible({ timeout: 12_000 });
    if (await alert.isVisible()) {
      await expect(alert).toContainText(REFUSED);
      // Try again: a fresh fetch of the manifest, which now answers otherwise.
      await alert.getByRole('button', { name: 'Try again' }).click();
      await expect(form.or(alert)).toBeVisible({ timeout: 12_000 });
    }
    await page.reload();
    await expect(form.or(alert)).toBeVisible({ timeout: 12_000 });

    if (order === 'tampered then genuine') {
      // Once the server answers the genuine manifest for good, the section loads from it.
      await expect(form).toBeVisible();
    } else {
      await expect(alert).toContainText(REFUSED);
    }
    expect(lab.faults.requests.filter((request) => request === '/mf-manifest.json').length).toBeGreaterThanOrEqual(2);
    // The modified chunk is never even requested, so it never runs.
    expect(lab.faults.requests).not.toContain(`/${EVIL_CHUNK}`);
    expect(titles).not.toContain('tampered');
    await expect(page).not.toHaveTitle('tampered');
  });
}
