import { en } from '../en';
import { fill, formatMoney } from '../fill';
import { LANGUAGES, packFor } from '../language';

test('fill replaces named placeholders and leaves unknown ones visible', () => {
  expect(fill(en.home.offer, { min: '₹2,000', max: '₹80,000' })).toBe(
    'Borrow from ₹2,000 to ₹80,000, in your bank account within 2 hours.',
  );
  expect(fill('Hello {name}, {unknown}', { name: 'Asha' })).toBe('Hello Asha, {unknown}');
});

test('fill inserts values as plain text, even ones that look like placeholders or markup', () => {
  expect(fill('Thanks, {name}.', { name: '<b>{name}</b>' })).toBe('Thanks, <b>{name}</b>.');
});

test('formatMoney shows whole rupees the Indian way and rupiah with dots', () => {
  expect(formatMoney(en.money.loanMin, 'en-IN', 'INR')).toBe('₹2,000');
  expect(formatMoney(en.money.loanMax, 'en-IN', 'INR')).toBe('₹80,000');
  expect(formatMoney(1_000_000, 'en-IN', 'INR')).toBe('₹10,00,000');
  expect(formatMoney(15_000_000, 'id-ID', 'IDR')).toBe('Rp\u00a015.000.000');
});

test('every language has a pack, and English is the India pack with the quoted texts', () => {
  for (const language of LANGUAGES) expect(packFor(language).locale).toBeTruthy();
  expect(packFor('en')).toBe(en);
  expect(en.locale).toBe('en-IN');
  expect(en.contact.incomplete).toBe('Please provide complete information!');
  expect(en.contact.success).toBe('Submit successfully！');
});
