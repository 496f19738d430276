import { sampleConfig } from '@portico/testing/sample-config';
import { expect, serve, test, workerPorts, writeConfig } from '../support/fixtures';

const MARKUP = '<img src=x onerror=alert(1)>';

const indonesia = {
  market: 'ID',
  companyName: `PT Portico Kredit Indonesia ${MARKUP}`,
  registrationNumber: 'NIB 9120000000001',
  licenceNumber: 'KEP-01/D.05/2026',
  registeredAddress: `Jl. Jenderal Sudirman Kav. 1, Jakarta ${MARKUP}`,
  website: 'https://portico-id.example',
  phone: '+62 21 0000 0000',
  grievanceOfficer: { name: 'Dewi Lestari', email: 'pengaduan@portico-id.example', phone: '+62 21 0000 0001' },
};

test('India (the default config): the company, its grievance officer and the RBI route, in both languages', async ({
  page,
  site,
}) => {
  const legal = sampleConfig.legal!;
  await page.goto(`${site.url}/#about`);
  const about = page.getByRole('tabpanel', { name: 'About Us' });
  await expect(about.getByRole('heading', { level: 3, name: 'Company information' })).toBeVisible();
  for (const value of [legal.companyName, legal.registrationNumber!, legal.licenceNumber!, legal.registeredAddress!]) {
    await expect(about).toContainText(value);
  }
  await expect(about.getByRole('heading', { level: 3, name: 'Complaints' })).toBeVisible();
  await expect(about).toContainText(`Grievance officer${legal.grievanceOfficer!.name}`);
  await expect(about).toContainText('If your complaint is not resolved within 30 days');
  const rbi = about.getByRole('link', { name: 'cms.rbi.org.in' });
  await expect(rbi).toHaveAttribute('href', 'https://cms.rbi.org.in');
  await expect(rbi).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(about).not.toContainText('OJK');

  await page.getByRole('link', { name: 'Bahasa Indonesia' }).click();
  const tentang = page.getByRole('tabpanel', { name: 'Tentang Kami' });
  await expect(tentang.getByRole('heading', { level: 3, name: 'Informasi perusahaan' })).toBeVisible();
  await expect(tentang).toContainText('Jika pengaduan Anda tidak terselesaikan dalam 30 hari');
  await expect(tentang.getByRole('link', { name: 'cms.rbi.org.in' })).toBeVisible();
});

test('Indonesia: licensed and supervised by OJK, OJK 157, and markup in the values stays text', async ({ page }, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 4);
  const site = await serve(basePort, writeConfig(basePort, { legal: indonesia }));
  try {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(`${site.url}/?type=2#about`);
    const about = page.getByRole('tabpanel', { name: 'Tentang Kami' });
    await expect(about).toContainText(
      `PT Portico Kredit Indonesia ${MARKUP} berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).`,
    );
    await expect(about).toContainText(`Alamat terdaftarJl. Jenderal Sudirman Kav. 1, Jakarta ${MARKUP}`);
    await expect(about.getByRole('link', { name: '157', exact: true })).toHaveAttribute('href', 'tel:157');
    const ojk = about.getByRole('link', { name: 'kontak157.ojk.go.id' });
    await expect(ojk).toHaveAttribute('href', 'https://kontak157.ojk.go.id');
    await expect(ojk).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(about.getByRole('link', { name: 'https://portico-id.example' })).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(about).not.toContainText('Reserve Bank');
    await expect(about).not.toContainText(/disetujui|approv/i);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);

    await page.goto(`${site.url}/?type=1#about`);
    await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText(
      'is licensed and supervised by the Financial Services Authority of Indonesia (Otoritas Jasa Keuangan, OJK).',
    );
    expect(dialogs).toBe(0);
  } finally {
    await site.close();
  }
});

test('without legal: a short neutral About Us, and a console warning that the disclosures are missing', async ({
  page,
}, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 5);
  const configPath = writeConfig(basePort);
  writeConfig.rewrite(configPath, { legal: undefined });
  const site = await serve(basePort, configPath);
  try {
    const warnings: string[] = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.goto(`${site.url}/#about`);
    const about = page.getByRole('tabpanel', { name: 'About Us' });
    await expect(about).toContainText('Portico Credit offers short-term personal loans');
    await expect(about.getByRole('heading', { level: 3 })).toHaveCount(0);
    // Warned by the script, which on the server-rendered page starts after the first paint.
    await expect.poll(() => warnings.join('\n')).toContain('config.json has no `legal` object');
    await expect(page.getByRole('complementary', { name: 'Configuration' })).toHaveCount(0);
  } finally {
    await site.close();
  }
});
