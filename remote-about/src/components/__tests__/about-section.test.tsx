import type { LegalDisclosures, SiteConfig } from '@portico/shared-config';
import { sampleConfig } from '@portico/testing/sample-config';
import { renderWithPortico } from '@portico/testing';
import { screen, within } from '@testing-library/react';
import { AboutSection } from '../about-section';

const india: LegalDisclosures = {
  companyName: 'Portico Credit Private Limited',
  registrationNumber: 'U65999KA2026PTC000001',
  licenceNumber: 'N-02.00001',
  registeredAddress: '12 MG Road, Bengaluru 560001',
  website: 'https://portico.example',
  phone: '+91 80 4567 8900',
  grievanceOfficer: { name: 'Asha Rao', email: 'grievance@portico.example', phone: '+91 80 4567 8901' },
};

const indonesia: LegalDisclosures = {
  companyName: 'PT Portico Kredit Indonesia',
  registrationNumber: '9120000000001',
  licenceNumber: 'KEP-01/D.05/2026',
  registeredAddress: 'Jl. Jenderal Sudirman Kav. 1, Jakarta',
  website: 'https://portico-id.example',
  phone: '+62 21 0000 0000',
  grievanceOfficer: { name: 'Dewi Lestari', email: 'pengaduan@portico-id.example' },
  association: 'AFPI',
};

const withLegal = (legal: SiteConfig['legal']): SiteConfig => ({ ...sampleConfig, legal });
const both = withLegal({ IN: india, ID: indonesia });

/** The value beside a label in a definition list. */
const valueOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

test("the India page (English) shows India's lender alone: its CIN and RBI registration, its grievance redressal officer, then the RBI's CMS after 30 days", async () => {
  await renderWithPortico(<AboutSection />, { config: both });

  expect(screen.getByRole('heading', { level: 3, name: 'Company information' })).toBeVisible();
  expect(valueOf('Legal name')).toHaveTextContent('Portico Credit Private Limited');
  expect(valueOf('Corporate identity number (CIN)')).toHaveTextContent('U65999KA2026PTC000001');
  expect(valueOf('RBI certificate of registration')).toHaveTextContent('N-02.00001');
  expect(valueOf('Registered address')).toHaveTextContent('12 MG Road, Bengaluru 560001');
  expect(screen.getByRole('link', { name: '+91 80 4567 8900' })).toHaveAttribute('href', 'tel:+918045678900');
  expect(screen.getByText('Portico Credit Private Limited holds a certificate of registration from the Reserve Bank of India.')).toBeVisible();

  expect(screen.getByRole('heading', { level: 3, name: 'Complaints' })).toBeVisible();
  expect(valueOf('Grievance redressal officer')).toHaveTextContent('Asha Rao');
  expect(screen.getByRole('link', { name: 'grievance@portico.example' })).toHaveAttribute('href', 'mailto:grievance@portico.example');
  expect(screen.getByText(/not resolved within 30 days/)).toHaveTextContent(
    'you can take it to the Reserve Bank of India through its Complaint Management System at cms.rbi.org.in.',
  );
  expect(document.body).not.toHaveTextContent(/OJK|Indonesia|Dewi Lestari|AFPI/);
});

test("the Indonesia page (Indonesian) shows Indonesia's lender alone: its NIB, OJK licence and association, its complaint officer first, then OJK 157", async () => {
  await renderWithPortico(<AboutSection />, { config: both, language: 'id' });

  expect(screen.getByRole('heading', { level: 3, name: 'Informasi perusahaan' })).toBeVisible();
  expect(valueOf('Nama badan hukum')).toHaveTextContent('PT Portico Kredit Indonesia');
  expect(valueOf('Nomor Induk Berusaha (NIB)')).toHaveTextContent('9120000000001');
  expect(valueOf('Nomor izin OJK')).toHaveTextContent('KEP-01/D.05/2026');
  expect(valueOf('Asosiasi industri')).toHaveTextContent('AFPI');
  expect(screen.getByText('PT Portico Kredit Indonesia berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).')).toBeVisible();

  const complaints = screen.getByRole('heading', { level: 3, name: 'Pengaduan' }).parentElement!;
  expect(within(complaints).getByText(/lebih dulu kepada petugas penanganan pengaduan kami/)).toBeVisible();
  expect(valueOf('Petugas penanganan pengaduan')).toHaveTextContent('Dewi Lestari');
  expect(within(complaints).getByText(/Jika pengaduan Anda tidak kami selesaikan/)).toHaveTextContent('layanan konsumen Otoritas Jasa Keuangan (OJK)');
  expect(screen.getByRole('link', { name: '157' })).toHaveAttribute('href', 'tel:157');
  expect(screen.getByRole('link', { name: 'kontak157.ojk.go.id' })).toHaveAttribute('href', 'https://kontak157.ojk.go.id');
  // No phone given for the officer: no empty row.
  expect(within(complaints).queryByText('Telepon')).toBeNull();
  expect(document.body).not.toHaveTextContent(/Reserve Bank|RBI|Portico Credit Private|Asha Rao|Bengaluru/);
});

test.each([
  ['en', { ID: indonesia }],
  ['id', { IN: india }],
] as const)("a page (%s) whose market has no block shows no lender and no complaint path, never the other market's", async (language, legal) => {
  await renderWithPortico(<AboutSection />, { config: withLegal(legal), language });
  expect(screen.getByText(/Portico Credit (offers|menyediakan)/)).toBeVisible();
  expect(screen.queryByRole('heading', { level: 3 })).not.toBeInTheDocument();
  expect(document.body).not.toHaveTextContent(/Portico Credit Private|PT Portico|RBI|OJK/);
});

test('every link off the site is rel="noopener noreferrer"', async () => {
  await renderWithPortico(<AboutSection />, { config: both });
  for (const [name, href] of [
    ['cms.rbi.org.in', 'https://cms.rbi.org.in'],
    ['https://portico.example', 'https://portico.example'],
  ]) {
    const link = screen.getByRole('link', { name });
    expect(link).toHaveAttribute('href', href);
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
});

test("without a licence number: no licence claim and no empty row; the regulator's channel is still shown", async () => {
  const { licenceNumber: _removed, ...unlicensed } = indonesia;
  await renderWithPortico(<AboutSection />, { config: withLegal({ ID: unlicensed }), language: 'id' });
  expect(screen.queryByText(/berizin/)).not.toBeInTheDocument();
  expect(screen.queryByText('Nomor izin OJK')).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'kontak157.ojk.go.id' })).toBeVisible();
});

test.each(['en', 'id'] as const)('no regulator is ever said to approve anything (%s)', async (language) => {
  const { container } = await renderWithPortico(<AboutSection />, { config: both, language });
  expect(container).not.toHaveTextContent(/approv|disetujui|menyetujui/i);
});

test('without legal, About Us says who the lender is in a short neutral text, never an empty box', async () => {
  const { legal: _removed, ...config } = sampleConfig;
  await renderWithPortico(<AboutSection />, { config });
  expect(screen.getByText(/Portico Credit offers short-term personal loans/)).toBeVisible();
  expect(screen.queryByRole('heading', { level: 3 })).not.toBeInTheDocument();
});

test('legal values holding markup are shown as text', async () => {
  const markup = '<img src=x onerror=alert(1)>';
  await renderWithPortico(<AboutSection />, {
    config: withLegal({ ID: { ...indonesia, companyName: `PT ${markup}`, registeredAddress: markup } }),
    language: 'id',
  });
  expect(valueOf('Alamat terdaftar')).toHaveTextContent(markup);
  expect(screen.getByText(`PT ${markup} berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).`)).toBeVisible();
  expect(document.querySelector('img[src="x"]')).toBeNull();
});
