import { fill, formatMoney } from '../fill';

test('fill replaces named placeholders and leaves unknown ones visible', () => {
  expect(fill('Borrow from {min} to {max}.', { min: '₹2,000', max: '₹80,000' })).toBe('Borrow from ₹2,000 to ₹80,000.');
  expect(fill('Hello {name}, {unknown}', { name: 'Asha' })).toBe('Hello Asha, {unknown}');
});

test('fill inserts values as plain text, even ones that look like placeholders or markup', () => {
  expect(fill('Thanks, {name}.', { name: '<b>{name}</b>' })).toBe('Thanks, <b>{name}</b>.');
});

test('formatMoney shows whole rupees the Indian way and rupiah with dots', () => {
  expect(formatMoney(2000, 'en-IN', 'INR')).toBe('₹2,000');
  expect(formatMoney(80_000, 'en-IN', 'INR')).toBe('₹80,000');
  expect(formatMoney(1_000_000, 'en-IN', 'INR')).toBe('₹10,00,000');
  expect(formatMoney(15_000_000, 'id-ID', 'IDR')).toBe('Rp\u00a015.000.000');
});

test('Indonesian money has no decimals and uses a no-break space after Rp', () => {
  expect(formatMoney(1_000_000, 'id', 'IDR')).toBe('Rp\u00a01.000.000');
});
