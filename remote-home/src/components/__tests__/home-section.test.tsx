import { renderWithPortico } from '@portico/shared-config/testing';
import { screen } from '@testing-library/react';
import { HomeSection } from '../home-section';

// Intl separates "Rp" from the figure with a no-break space.
const plain = (text: string | null) => text?.replace(/\u00a0/g, ' ');

test('in English: three steps, loans of ₹2,000 to ₹80,000, a monthly income of ₹12,000, the user count', async () => {
  await renderWithPortico(<HomeSection />);
  expect(screen.getByRole('heading', { level: 2, name: 'A personal loan in three steps' })).toBeVisible();
  expect(screen.getAllByRole('listitem').map((step) => step.querySelector('h4')?.textContent)).toEqual([
    'Apply for a loan',
    'Complete certification',
    'Complete the loan',
  ]);
  expect(screen.getByText('Borrow from ₹2,000 to ₹80,000, in your bank account within 2 hours.')).toBeVisible();
  expect(screen.getByText('For salaried applicants earning ₹12,000 or more a month.')).toBeVisible();
  expect(screen.getByText('Trusted by over 3 million users.')).toBeVisible();
});

test('in Indonesian: pinjaman Rp 1.000.000 to Rp 15.000.000 within 2 hours, an annual pay of Rp 5.000.000', async () => {
  const { container } = await renderWithPortico(<HomeSection />, { language: 'id' });
  expect(screen.getByRole('heading', { level: 2, name: 'Pinjaman pribadi dalam tiga langkah' })).toBeVisible();
  expect(screen.getByRole('heading', { level: 3, name: 'Cara kerjanya' })).toBeVisible();
  const lines = [...container.querySelectorAll('p')].map((line) => plain(line.textContent));
  expect(lines).toContain('Pinjam mulai Rp 1.000.000 hingga Rp 15.000.000, cair ke rekening bank Anda dalam 2 jam.');
  expect(lines).toContain('Untuk pemohon dengan gaji tahunan Rp 5.000.000 atau lebih.');
  expect(container).not.toHaveTextContent(/juta pengguna|million/);
  expect(container).not.toHaveTextContent(',00');
});
