import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { APP_DIRS } from '@portico/contract/sections';
import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';
import { copyDists, redeploy, SECOND_BUILD_TEXT, secondBuildRoot } from '../support/second-build';

/** The copied builds are rendered in the browser: Home and About, static by default (issue 46), are granted script here to be shown. */
const SCRIPT_EVERYWHERE = { sections: { home: { interactive: true }, about: { interactive: true } } };

const contactDist = (root: string) => path.join(root, APP_DIRS.contact, 'dist');

/** Alters a built file the way an attacker on the CDN would, its precompressed twins included. */
function tamper(dist: string, file: string): void {
  const code = `${readFileSync(path.join(dist, file), 'utf8')}\n;document.title = "tampered";\n`;
  writeFileSync(path.join(dist, file), code);
  writeFileSync(path.join(dist, `${file}.gz`), gzipSync(code));
  writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(code));
}

const sriOf = (file: string) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;

test.describe('script integrity', () => {
  for (const [what, pick] of [
    ['its exposed chunk', (files: string[]) => files.find((file) => /^__federation_expose_section\.[0-9a-f]+\.js$/.test(file))!],
    ['its remoteEntry.js', () => 'remoteEntry.js'],
  ] as const) {
    test(`a remote whose ${what} was altered after the build is refused: the section shows its alert, the page works`, async ({ page }, testInfo) => {
      const root = copyDists();
      tamper(contactDist(root), pick(readdirSync(contactDist(root))));
      const port = workerPorts(testInfo.parallelIndex, 7);
      const site = await serve(port, writeConfig(port, SCRIPT_EVERYWHERE), root);
      try {
        await page.goto(`${site.url}/#contact`);
        const contact = page.getByRole('tabpanel', { name: 'Contact us' });
        await expect(contact.getByRole('alert')).toBeVisible({ timeout: 12_000 });
        await expect(contact.getByRole('button', { name: 'Try again' })).toBeVisible();
        await expect(contact.getByRole('button', { name: 'Send message' })).toHaveCount(0);
        await expect(page).not.toHaveTitle('tampered');

        await page.getByRole('tab', { name: 'Home' }).click();
        await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();

        // A real redeploy carries its own hashes, and loads. The second build
        // changes only a label in Contact's texts, so its exposed chunk keeps
        // its bytes and its name, and this browser holds the tampered copy
        // under that name (immutable): a visitor without it checks the redeploy.
        redeploy(root, 'contact', await secondBuildRoot());
        const visitor = await page.context().browser()!.newPage();
        try {
          await visitor.goto(`${site.url}/#contact`);
          const redeployed = visitor.getByRole('tabpanel', { name: 'Contact us' });
          await expect(redeployed).toContainText(SECOND_BUILD_TEXT);
          await expect(redeployed.getByRole('button', { name: 'Send message' })).toBeVisible();
        } finally {
          await visitor.close();
        }
      } finally {
        await site.close();
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});

test('a manifest pinned in config.json loads while it matches, is refused once it changes, and loads again when the pin follows', async ({
  page,
}, testInfo) => {
  const root = copyDists();
  const basePort = workerPorts(testInfo.parallelIndex, 7);
  const configPath = writeConfig(basePort, { ...SCRIPT_EVERYWHERE, remoteIntegrity: { contact: sriOf(path.join(contactDist(root), 'mf-manifest.json')) } });
  const site = await serve(basePort, configPath, root);
  try {
    const contact = page.getByRole('tabpanel', { name: 'Contact us' });
    await page.goto(`${site.url}/#contact`);
    await expect(contact.getByRole('button', { name: 'Send message' })).toBeVisible();

    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    redeploy(root, 'contact', await secondBuildRoot());
    await page.reload();
    await expect(contact.getByRole('alert')).toBeVisible({ timeout: 12_000 });
    expect(errors.join('\n')).toContain('does not match its remoteIntegrity pin');
    await page.getByRole('tab', { name: 'About Us' }).click();
    await expect(page.getByRole('tabpanel', { name: 'About Us' }).getByRole('heading', { name: 'About Us' })).toBeVisible();

    writeConfig.rewrite(configPath, { remoteIntegrity: { contact: sriOf(path.join(contactDist(root), 'mf-manifest.json')) } });
    await page.getByRole('tab', { name: 'Contact us' }).click();
    await page.reload();
    await expect(contact).toContainText(SECOND_BUILD_TEXT);
  } finally {
    await site.close();
    rmSync(root, { recursive: true, force: true });
  }
});
