import type { LegalDisclosures, SiteConfig } from '@portico/shared-config';
import { sampleConfig } from '@portico/testing/sample-config';
import { renderWithPortico } from '@portico/testing';
import { screen, within } from '@testing-library/react';
import { AboutSection } from '../about-section';

const india: LegalDisclosures = {
  market: 'IN',
  companyName: 'Portico Credit Private Limited',
  registrationNumber: 'U65999KA2026PTC000001',
  licenceNumber: 'N-02.00001',
  registeredAddress: '12 MG Road, Bengaluru 560001',
  website: 'https://portico.example',
  phone: '+91 80 4567 8900',
  grievanceOfficer: { name: 'Asha Rao', email: 'grievance@portico.example', phone: '+91 80 4567 8901' },
};

const indonesia: LegalDisclosures = {
  market: 'ID',
  companyName: 'PT Portico Kredit Indonesia',
  registrationNumber: 'NIB 9120000000001',
  licenceNumber: 'KEP-01/D.05/2026',
  registeredAddress: 'Jl. Jenderal Sudirman Kav. 1, Jakarta',
  website: 'https://portico-id.example',
  phone: '+62 21 0000 0000',
  grievanceOfficer: { name: 'Dewi Lestari', email: 'pengaduan@portico-id.example' },
};

const withLegal = (legal: SiteConfig['legal']): SiteConfig => ({ ...sampleConfig, legal });

/** The value beside a label in a definition list. */
const valueOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

test('India, in English: the company, the grievance officer and the RBI complaint route after 30 days', async () => {
  await renderWithPortico(<AboutSection />, { config: withLegal(india) });

  expect(screen.getByRole('heading', { level: 3, name: 'Company information' })).toBeVisible();
  expect(valueOf('Legal name')).toHaveTextContent('Portico Credit Private Limited');
  expect(valueOf('Registration number')).toHaveTextContent('U65999KA2026PTC000001');
  expect(valueOf('Licence number')).toHaveTextContent('N-02.00001');
  expect(valueOf('Registered address')).toHaveTextContent('12 MG Road, Bengaluru 560001');
  expect(screen.getByRole('link', { name: '+91 80 4567 8900' })).toHaveAttribute('href', 'tel:+918045678900');

  expect(screen.getByRole('heading', { level: 3, name: 'Complaints' })).toBeVisible();
  expect(valueOf('Grievance officer')).toHaveTextContent('Asha Rao');
  expect(screen.getByRole('link', { name: 'grievance@portico.example' })).toHaveAttribute(
    'href',
    'mailto:grievance@portico.example',
  );
  expect(screen.getByText(/not resolved within 30 days/)).toHaveTextContent(
    'you can take it to the Reserve Bank of India through its Complaint Management System at cms.rbi.org.in.',
  );
  expect(screen.queryByText(/OJK/)).not.toBeInTheDocument();
});

test('every link off the site is rel="noopener noreferrer"', async () => {
  await renderWithPortico(<AboutSection />, { config: withLegal(india) });
  for (const [name, href] of [
    ['cms.rbi.org.in', 'https://cms.rbi.org.in'],
    ['https://portico.example', 'https://portico.example'],
  ]) {
    const link = screen.getByRole('link', { name });
    expect(link).toHaveAttribute('href', href);
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
});

test('India, in Indonesian: Indonesian labels, and still the RBI route, because the regulator follows the market', async () => {
  await renderWithPortico(<AboutSection />, { config: withLegal(india), language: 'id' });
  expect(screen.getByRole('heading', { level: 2, name: 'Tentang Kami' })).toBeVisible();
  expect(screen.getByRole('heading', { level: 3, name: 'Informasi perusahaan' })).toBeVisible();
  expect(valueOf('Nama badan hukum')).toHaveTextContent('Portico Credit Private Limited');
  expect(screen.getByText(/tidak terselesaikan dalam 30 hari/)).toHaveTextContent('Reserve Bank of India');
  expect(screen.getByRole('link', { name: 'cms.rbi.org.in' })).toBeVisible();
});

test('Indonesia, in Indonesian, with a licence: "berizin dan diawasi oleh OJK" and OJK\'s consumer contact 157', async () => {
  await renderWithPortico(<AboutSection />, { config: withLegal(indonesia), language: 'id' });
  expect(
    screen.getByText('PT Portico Kredit Indonesia berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).'),
  ).toBeVisible();
  expect(screen.getByRole('link', { name: '157' })).toHaveAttribute('href', 'tel:157');
  const ojk = screen.getByRole('link', { name: 'kontak157.ojk.go.id' });
  expect(ojk).toHaveAttribute('href', 'https://kontak157.ojk.go.id');
  expect(ojk).toHaveAttribute('rel', 'noopener noreferrer');
  expect(screen.queryByText(/Reserve Bank/)).not.toBeInTheDocument();
  // No phone given for the officer: no empty row.
  expect(within(screen.getByRole('heading', { name: 'Pengaduan' }).parentElement!).queryByText('Telepon')).toBeNull();
});

test('Indonesia, in English: the OJK statement in English', async () => {
  await renderWithPortico(<AboutSection />, { config: withLegal(indonesia) });
  expect(screen.getByText(/is licensed and supervised by the Financial Services Authority of Indonesia/)).toBeVisible();
  expect(screen.getByRole('link', { name: 'kontak157.ojk.go.id' })).toBeVisible();
});

test('Indonesia without a licence number: no licence claim, OJK\'s consumer contact still shown', async () => {
  const { licenceNumber: _removed, ...unlicensed } = indonesia;
  await renderWithPortico(<AboutSection />, { config: withLegal(unlicensed), language: 'id' });
  expect(screen.queryByText(/berizin/)).not.toBeInTheDocument();
  expect(screen.queryByText('Nomor izin')).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'kontak157.ojk.go.id' })).toBeVisible();
});

test.each(['en', 'id'] as const)('no regulator is ever said to approve anything (%s)', async (language) => {
  for (const legal of [india, indonesia]) {
    const { container, unmount } = await renderWithPortico(<AboutSection />, { config: withLegal(legal), language });
    expect(container).not.toHaveTextContent(/approv|disetujui|menyetujui/i);
    unmount();
  }
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
    config: withLegal({ ...indonesia, companyName: `PT ${markup}`, registeredAddress: markup }),
    language: 'id',
  });
  expect(valueOf('Alamat terdaftar')).toHaveTextContent(markup);
  expect(screen.getByText(`PT ${markup} berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).`)).toBeVisible();
  expect(document.querySelector('img[src="x"]')).toBeNull();
});
