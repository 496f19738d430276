import path from 'node:path';
import { APP_DIRS } from '@portico/contract/sections';
import type { Page } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { consoleOrigin, signIn } from '../support/console';
import { expect, test, workerPorts, writeConfig } from '../support/fixtures';
import { runRelease, runServe, waitForOutput } from '../support/run-cli';
import { secondBuildRoot } from '../support/second-build';
import { serveUnderPath } from '../support/static-server';

const TOKEN = 'the-integrators-canary-form-token';

// Issue 49, section teams: the console's canary form takes the thresholds
// the CLI takes (it took a share only; checked to fail before: no
// "Thresholds" group), in both languages, and a section's first release is
// canaried against config.json's build (it answered 409 "activate one
// first"). Port slot 14, the upload on 18, as releases.spec.ts (the control
// API takes slot 15's first port).

async function startCanary(page: Page, labels: { share: string; visits: string; delta: string; start: string; confirm: string }, values: string[]) {
  const [share, visits, delta] = values;
  await page.getByRole('spinbutton', { name: labels.share }).fill(share!);
  const thresholds = page.getByRole('group', { name: labels.visits === 'Visits before judging' ? 'Thresholds' : 'Ambang' });
  await thresholds.getByRole('spinbutton', { name: labels.visits }).fill(visits!);
  await thresholds.getByRole('spinbutton', { name: labels.delta }).fill(delta!);
  await page.getByRole('button', { name: labels.start }).click();
  await page.getByRole('dialog', { name: labels.start }).getByRole('button', { name: labels.confirm }).click();
}

test('the console starts a first release’s canary with the CLI’s thresholds, in English and in Indonesian', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const port = workerPorts(testInfo.parallelIndex, 14);
  const upload = await serveUnderPath(path.join(await secondBuildRoot(), APP_DIRS.contact, 'dist'), '/contact/v2/', workerPorts(testInfo.parallelIndex, 18));
  const configPath = writeConfig(port, { allowedRemoteOrigins: [new URL(upload.url).origin] });
  const serve = runServe({ PORT: String(port), PORTICO_CONFIG: configPath, PORTICO_CONTROL_TOKEN: TOKEN });
  const release = async (...args: string[]) => runRelease(args, { port: port, token: TOKEN });
  try {
    await waitForOutput(serve);
    const first = /contact-\d+/.exec(await release('publish', 'contact', `${upload.url}mf-manifest.json`))![0];
    await signIn(page, port, TOKEN);
    await page.goto(`${consoleOrigin(port)}/#/sections/contact`);
    await expect(page.getByRole('heading', { name: 'Contact us', level: 1 })).toBeVisible();
    await expect(page.getByText('No release is active yet: the canary is judged against the build named in config.json')).toBeVisible();
    expect(await axeViolations(page), 'the canary form, English').toEqual([]);

    await startCanary(
      page,
      {
        share: 'Share of visitors (%)',
        visits: 'Visits before judging',
        delta: 'Highest failure-rate increase (points)',
        start: 'Start canary',
        confirm: 'Confirm',
      },
      ['20', '200', '1.5'],
    );
    await expect(page.getByText(`Canary started: 20 % of visitors get ${first}.`)).toBeVisible();
    expect(await release('audit', '--section', 'contact', '--limit', '1')).toContain(
      "judged from 200 visits: rolled back when its failure rate is over the active's by more than 1.5 points",
    );
    await page.getByRole('button', { name: 'Abort canary' }).click();
    await page.getByRole('dialog', { name: 'Abort canary' }).getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('button', { name: 'Start canary' })).toBeVisible();

    await page.getByRole('button', { name: 'Bahasa Indonesia' }).click();
    await expect(page.getByRole('group', { name: 'Ambang' })).toBeVisible();
    expect(await axeViolations(page), 'the canary form, Indonesian').toEqual([]);
    await startCanary(
      page,
      {
        share: 'Bagian pengunjung (%)',
        visits: 'Kunjungan sebelum dinilai',
        delta: 'Kenaikan tingkat kegagalan tertinggi (poin)',
        start: 'Mulai canary',
        confirm: 'Konfirmasi',
      },
      ['30', '100', '3'],
    );
    await expect(page.getByText(`Canary dimulai: 30 % pengunjung mendapat ${first}.`)).toBeVisible();
    expect(await release('audit', '--section', 'contact', '--limit', '1')).toContain(
      "judged from 100 visits: rolled back when its failure rate is over the active's by more than 3.0 points",
    );
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
    await upload.close();
  }
});
