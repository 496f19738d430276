import { fill, formatMoney, formatWholeNumber } from '../fill';

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

test('the two markets’ amounts, written without Intl, are what Intl writes, rounding included', () => {
  const amounts = [0, 1, 9, 999, 1000, 2000, 9999.5, 12_000, 80_000, 99_999, 100_000, 1_000_000, 12_345_678, 15_000_000, 987_654_321_012];
  for (const [locale, currency] of [
    ['en-IN', 'INR'],
    ['id', 'IDR'],
    ['id-ID', 'IDR'],
  ] as const) {
    const intl = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: 0 });
    for (const amount of amounts) expect(formatMoney(amount, locale, currency)).toBe(intl.format(amount));
  }
});

test('other locales, currencies and negative amounts are formatted by Intl', () => {
  expect(formatMoney(15_000_000, 'en-IN', 'IDR')).toBe('IDR\u00a01,50,00,000');
  expect(formatMoney(-2000, 'en-IN', 'INR')).toBe('-₹2,000');
});

test('whole numbers are grouped as Intl groups them in both markets', () => {
  for (const locale of ['en-IN', 'id']) {
    const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    for (const value of [0, 7, 180, 999, 1000, 3650, 123_456, 12_345_678]) expect(formatWholeNumber(value, locale)).toBe(intl.format(value));
  }
});
