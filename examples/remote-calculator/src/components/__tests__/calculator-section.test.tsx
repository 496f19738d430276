import { renderWithPortico } from '@portico/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CalculatorSection } from '../calculator-section';

// \u00a0 (no-break space) keeps "Rp" with its figure; compare with a plain space.
const shown = (element: HTMLElement) => (element.textContent ?? '').replace(/\u00a0/g, ' ');

/** The result's figures by their terms, as a reader pairs them. */
function figures(): Record<string, string> {
  const result = screen.getByRole('status');
  const terms = within(result).getAllByRole('term');
  const values = within(result).getAllByRole('definition');
  return Object.fromEntries(terms.map((term, index) => [shown(term), shown(values[index]!)]));
}

async function enter(name: string, value: string) {
  const user = userEvent.setup();
  const field = screen.getByRole('textbox', { name });
  await user.clear(field);
  if (value !== '') await user.type(field, value);
  return field;
}

test('it opens on an example, labelled as illustrative, so the page shows a result before anyone types', async () => {
  await renderWithPortico(<CalculatorSection />);
  expect(screen.getByRole('heading', { level: 2, name: 'Repayment calculator' })).toBeVisible();
  expect(screen.getByText(/^Illustrative figures, not an offer: 0\.1% interest a day and a 2% processing fee\./)).toBeVisible();
  expect(screen.getByRole('textbox', { name: 'Loan amount' })).toHaveValue('10000');
  expect(screen.getByRole('textbox', { name: 'Term (days)' })).toHaveValue('30');
  expect(figures()).toEqual({ Interest: '₹300', Fees: '₹200', 'Total to repay': '₹10,500' });
});

test('the total to repay and the fees follow what is typed, in rupees', async () => {
  await renderWithPortico(<CalculatorSection />);
  await enter('Loan amount', '50,000');
  await enter('Term (days)', '60');
  expect(figures()).toEqual({ Interest: '₹3,000', Fees: '₹1,000', 'Total to repay': '₹54,000' });
});

test.each([
  ['', 'Enter a loan amount.'],
  ['1999', 'Enter a loan amount from ₹2,000 to ₹80,000.'],
  ['80001', 'Enter a loan amount from ₹2,000 to ₹80,000.'],
  ['12.5', 'Enter the loan amount in whole rupees, digits only, for example 10,000.'],
  ['-5000', 'Enter the loan amount in whole rupees, digits only, for example 10,000.'],
])('a loan amount of "%s" is refused with a message the field is described by', async (typed, message) => {
  await renderWithPortico(<CalculatorSection />);
  const field = await enter('Loan amount', typed);
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(field).toHaveAccessibleDescription(`From ₹2,000 to ₹80,000. ${message}`);
  expect(screen.getByRole('status')).toHaveTextContent(message);
  expect(screen.queryByText('Total to repay')).not.toBeInTheDocument();
});

test('a term out of range is refused; set right again, the result is back', async () => {
  await renderWithPortico(<CalculatorSection />);
  const field = await enter('Term (days)', '365');
  expect(field).toHaveAccessibleDescription('From 7 to 180 days. Enter a term from 7 to 180 days.');
  await enter('Term (days)', '');
  expect(screen.getByRole('status')).toHaveTextContent('Enter a term in days.');
  await enter('Term (days)', '7');
  expect(field).not.toHaveAttribute('aria-invalid');
  expect(figures()).toEqual({ Interest: '₹70', Fees: '₹200', 'Total to repay': '₹10,270' });
});

test('in Indonesian it asks in rupiah, with Indonesia’s terms', async () => {
  await renderWithPortico(<CalculatorSection />, { language: 'id' });
  expect(screen.getByText(/^Angka ilustrasi, bukan penawaran: bunga 0,3% per hari/)).toBeVisible();
  expect(figures()).toEqual({ Bunga: 'Rp 270.000', Biaya: 'Rp 30.000', 'Total pengembalian': 'Rp 3.300.000' });
  await enter('Jumlah pinjaman', '1.000.000');
  await enter('Jangka waktu (hari)', '10');
  expect(figures()).toEqual({ Bunga: 'Rp 30.000', Biaya: 'Rp 10.000', 'Total pengembalian': 'Rp 1.040.000' });
  await enter('Jumlah pinjaman', '500000');
  expect(screen.getByRole('status')).toHaveTextContent('Masukkan jumlah pinjaman dari Rp 1.000.000 hingga Rp 15.000.000.');
});
