import { en } from '../en';
import { fill, formatMoney } from '../fill';
import { id } from '../id';
import { LANGUAGE_NAMES } from '../language';
import type { TextPack } from '../text-pack';

/** Keys where a pack may say nothing: a claim the specification gives only one market. */
const MAY_BE_NULL = new Set(['home.users']);

/** Every leaf of a pack by its dotted path, array items by index. */
function leaves(node: unknown, path = ''): [string, unknown][] {
  if (node !== null && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key));
  }
  return [[path, node]];
}

const packs = { en, id } satisfies Record<string, TextPack>;

test('both packs have exactly the same keys, nested ones included', () => {
  expect(leaves(id).map(([path]) => path)).toEqual(leaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text', (_language, pack) => {
  for (const [path, value] of leaves(pack)) {
    if (value === null && MAY_BE_NULL.has(path)) continue;
    expect([path, typeof value === 'string' ? value.trim() !== '' : typeof value === 'number']).toEqual([path, true]);
  }
});

test.each(Object.entries(packs))('the %s pack fills only placeholders its texts are given', (_language, pack) => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
  expect(placeholders(pack.home.offer)).toEqual(['max', 'min']);
  expect(placeholders(pack.home.eligibility)).toEqual(['income']);
  expect(placeholders(pack.about.body)).toEqual(['company']);
  expect(placeholders(pack.contact.thanks)).toEqual(['name']);
  expect(placeholders(pack.sections.loading)).toEqual(['section']);
  expect(placeholders(pack.sections.failed)).toEqual(['section']);
  expect(placeholders(pack.about.regulator.rbiComplaint)).toEqual(['link']);
  expect(placeholders(pack.about.regulator.ojkLicensed)).toEqual(['company']);
  expect(placeholders(pack.about.regulator.ojkContact)).toEqual(['link', 'phone']);
});

test('the English pack keeps the texts the specification quotes', () => {
  expect(en.contact.incomplete).toBe('Please provide complete information!');
  expect(en.contact.success).toBe('Submit successfully！');
  expect(en.nav.tabs).toEqual({ home: 'Home', about: 'About Us', contact: 'Contact us' });
  expect([en.contact.name, en.contact.telephone, en.contact.message, en.contact.send]).toEqual([
    'Name',
    'Telephone',
    'Message',
    'Send message',
  ]);
  expect([en.footer.companyName, en.footer.email, en.footer.address]).toEqual([
    'Company Name',
    'Contact Email',
    'Contact Address',
  ]);
  expect(en.sections.tryAgain).toBe('Try again');
});

test('each pack tags itself for <html lang> and the language switch', () => {
  expect(en.locale).toBe('en-IN');
  expect(id.locale).toBe('id');
  expect(LANGUAGE_NAMES.en.tag).toBe(en.locale);
  expect(LANGUAGE_NAMES.id.tag).toBe(id.locale);
});

// \u00a0 (no-break space) keeps "Rp" on the same line as its figure; compare with a plain space.
const money = (pack: TextPack, amount: number) => formatMoney(amount, pack.locale, pack.money.currency).replace(/\u00a0/g, ' ');

test('India: loans of ₹2,000 to ₹80,000 for a MONTHLY income of ₹12,000, over 3 million users', () => {
  expect([en.money.loanMin, en.money.loanMax, en.money.minIncome].map((amount) => money(en, amount))).toEqual([
    '₹2,000',
    '₹80,000',
    '₹12,000',
  ]);
  expect(fill(en.home.offer, { min: '₹2,000', max: '₹80,000' })).toBe(
    'Borrow from ₹2,000 to ₹80,000, in your bank account within 2 hours.',
  );
  expect(en.home.eligibility).toMatch(/a month\.$/);
  expect(en.home.users).toBe('Trusted by over 3 million users.');
});

test('Indonesia: pinjaman Rp 1.000.000 to Rp 15.000.000 for an ANNUAL pay of Rp 5.000.000, no user count', () => {
  expect([id.money.loanMin, id.money.loanMax, id.money.minIncome].map((amount) => money(id, amount))).toEqual([
    'Rp 1.000.000',
    'Rp 15.000.000',
    'Rp 5.000.000',
  ]);
  expect(fill(id.home.offer, { min: 'Rp 1.000.000', max: 'Rp 15.000.000' })).toBe(
    'Pinjam mulai Rp 1.000.000 hingga Rp 15.000.000, cair ke rekening bank Anda dalam 2 jam.',
  );
  expect(id.home.eligibility).toContain('gaji tahunan');
  expect(id.home.users).toBeNull();
});

test('Indonesian money has no decimals and uses a no-break space after Rp', () => {
  expect(formatMoney(1_000_000, 'id', 'IDR')).toBe('Rp\u00a01.000.000');
});
