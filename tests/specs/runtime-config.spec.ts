import { execFile } from 'node:child_process';
import path from 'node:path';
import { sampleConfig } from '@portico/testing/sample-config';
import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';
import { REPO_ROOT } from '../support/paths';

/** `npm run check-remotes <file>`'s program, run as an operator would (while this process serves the remotes it fetches). */
function runCheckRemotes(configPath: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'deploy/src/check-remotes-cli.ts'), configPath], { cwd: REPO_ROOT }, (error, stdout) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout }),
    );
  });
}

const MARKUP = '<img src=x onerror=alert(1)>';

// One server for both (a start is the costly part of each): the page as the file says, then as it says after an edit.
test('title, brand and footer come from the PORTICO_CONFIG file, markup shown as text; an edit to the file shows on the next page load, with no rebuild or restart', async ({
  page,
}, testInfo) => {
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

    writeConfig.rewrite(configPath, { comName: 'After' });
    await page.reload();
    await expect(page).toHaveTitle('After');
  } finally {
    await site.close();
  }
});

test("an invalid email and licence field are the operator's: logged once by the server, named by check-remotes (exit 1), and never shown to the visitor, whose page is rendered from what is valid", async ({
  page,
}, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 3);
  const indonesia = { ...sampleConfig.legal!.ID!, companyName: 'PT Kredit Cepat Nusantara', licenceNumber: '' };
  const configPath = writeConfig(basePort, { email: 'halo at kcn', legal: { ...sampleConfig.legal, ID: indonesia } });
  const site = await serve(basePort, configPath);
  try {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    for (const query of ['', '?type=2', '?type=2#about']) {
      await page.goto(`${site.url}/${query}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('complementary')).toHaveCount(0);
    }
    const about = page.getByRole('tabpanel', { name: 'Tentang Kami' });
    await expect(about).toContainText('PT Kredit Cepat Nusantara');
    await expect(about).not.toContainText('Nomor izin OJK');
    await expect(page.getByRole('contentinfo')).toContainText('Email KontakBelum diatur');
    // The technical detail stays on the console, for whoever opens it.
    await expect.poll(() => errors.join('\n')).toContain('email: is not a valid email');

    const invalid = (line: string) => /^config\.json: (email|legal\.ID\.licenceNumber):/.test(line);
    expect(site.logged.filter(invalid)).toEqual([
      'config.json: email: is not a valid email (the page is rendered without it)',
      'config.json: legal.ID.licenceNumber: must not be empty (the page is rendered without it)',
    ]);

    const check = await runCheckRemotes(configPath);
    expect(check.stdout).toContain('problem: config.json email: is not a valid email');
    expect(check.stdout).toContain('problem: config.json legal.ID.licenceNumber: must not be empty');
    expect(check.status).toBe(1);
  } finally {
    await site.close();
  }
});
