import path from 'node:path';
import { APP_DIRS } from '@portico/contract/sections';
import { expect, test, workerPorts, writeConfig } from '../support/fixtures';
import { runRelease, runServe, waitForOutput } from '../support/run-cli';
import { SECOND_BUILD_LABEL, secondBuildRoot } from '../support/second-build';
import { serveUnderPath } from '../support/static-server';

const TOKEN = 'the-integrators-ci-token';

// The deploy workflow of docs/deploy.md, in a real browser against `npm run
// serve`: a section team's second build, uploaded to a static host of its
// own, published through every check, previewed, activated for everyone
// and rolled back, each with `npm run release`. Port slot 14: the control
// API takes the port after the remotes' (slot 15's first, not otherwise in
// use while this test runs on its worker).

test('the Contact team publishes its second build, previews it, the integrator activates it and rolls it back: the page shows each', async ({
  page,
}, testInfo) => {
  const port = workerPorts(testInfo.parallelIndex, 14);
  const upload = await serveUnderPath(path.join(await secondBuildRoot(), APP_DIRS.contact, 'dist'), '/contact/v2/', workerPorts(testInfo.parallelIndex, 18));
  const configPath = writeConfig(port, { allowedRemoteOrigins: [new URL(upload.url).origin] });
  const serve = runServe({ PORT: String(port), PORTICO_CONFIG: configPath, PORTICO_CONTROL_TOKEN: TOKEN });
  const release = async (...args: string[]) => {
    return runRelease(args, { port: port, token: TOKEN });
  };
  const messageField = (label: string) => page.getByRole('tabpanel', { name: 'Contact us' }).getByRole('textbox', { name: label, exact: true });
  try {
    await waitForOutput(serve);
    // What runs now becomes the first release, so there is something to roll back to.
    const first = /contact-\d+/.exec(await release('publish', 'contact', `http://localhost:${port + 3}/mf-manifest.json`))![0];
    await release('activate', 'contact', first);

    const published = await release('publish', 'contact', `${upload.url}mf-manifest.json`, '--note', 'longer message label');
    const second = /contact-\d+/.exec(published)![0];

    // The preview link shows the new build to whoever opens it, and says so: on Contact's tab, the notice in view
    // (issue 49: it opened on Home, the notice scrolled away; checked to fail before, Home's tab selected).
    const link = (await release('preview', second)).split('\n')[0]!;
    expect(new URL(link).hash).toBe('#contact');
    await page.goto(link);
    await expect(page.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('complementary', { name: 'Release preview' })).toContainText(`release ${second}`);
    await expect(messageField(SECOND_BUILD_LABEL.en.after)).toBeInViewport();
    await expect(page.getByRole('complementary', { name: 'Release preview' })).toBeInViewport();
    // In Indonesian too: the switch keeps the preview and the section.
    await page.getByRole('group', { name: 'Language' }).getByRole('link', { name: 'Bahasa Indonesia' }).click();
    await expect(page.getByRole('tab', { name: 'Hubungi Kami' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('complementary', { name: 'Pratinjau rilis (preview)' })).toContainText(second);
    await expect(
      page.getByRole('tabpanel', { name: 'Hubungi Kami' }).getByRole('textbox', { name: SECOND_BUILD_LABEL.id.after, exact: true }),
    ).toBeInViewport();
    await expect(page.getByRole('complementary', { name: 'Pratinjau rilis (preview)' })).toBeInViewport();

    // Everyone else still gets the active release.
    await page.goto(`http://localhost:${port}/#contact`);
    await expect(messageField(SECOND_BUILD_LABEL.en.before)).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Release preview' })).toHaveCount(0);

    await release('activate', 'contact', second);
    await expect(async () => {
      await page.reload();
      await expect(messageField(SECOND_BUILD_LABEL.en.after)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });

    await release('rollback', 'contact');
    await expect(async () => {
      await page.reload();
      await expect(messageField(SECOND_BUILD_LABEL.en.before)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });

    const status = await release('status');
    expect(status).toMatch(new RegExp(`contact\\s+${first}\\s`));
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
    await upload.close();
  }
});
