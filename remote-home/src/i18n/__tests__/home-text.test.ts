import { fill, formatMoney } from '@portico/shared-config';
import { localeOf } from '@portico/contract/languages';
import { placeholdersOf, textLeaves } from '@portico/testing';
import type { HomeText } from '../home-text';
import { loadHomeText } from '../use-home-text';
import { en } from '../en';
import { id } from '../id';

const packs = { en, id } satisfies Record<string, HomeText>;

/** Keys where a pack may say nothing: a claim the specification gives only one market. */
const MAY_BE_NULL = new Set(['users']);

test('both packs have exactly the same keys, nested ones included', () => {
  expect(textLeaves(id).map(([path]) => path)).toEqual(textLeaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text', (_language, pack) => {
  for (const [path, value] of textLeaves(pack)) {
    if (value === null && MAY_BE_NULL.has(path)) continue;
    expect([path, typeof value === 'string' ? value.trim() !== '' : typeof value === 'number']).toEqual([path, true]);
  }
});

test.each(Object.entries(packs))('the %s pack fills only placeholders its texts are given', (_language, pack) => {
  expect(placeholdersOf(pack.offer)).toEqual(['max', 'min']);
  expect(placeholdersOf(pack.eligibility)).toEqual(['income']);
});

// \u00a0 (no-break space) keeps "Rp" on the same line as its figure; compare with a plain space.
const money = (pack: HomeText, language: 'en' | 'id', amount: number) => formatMoney(amount, localeOf(language), pack.money.currency).replace(/\u00a0/g, ' ');

test('India: loans of ₹2,000 to ₹80,000 for a MONTHLY income of ₹12,000, over 3 million users', () => {
  expect([en.money.loanMin, en.money.loanMax, en.money.minIncome].map((amount) => money(en, 'en', amount))).toEqual(['₹2,000', '₹80,000', '₹12,000']);
  expect(fill(en.offer, { min: '₹2,000', max: '₹80,000' })).toBe('Borrow from ₹2,000 to ₹80,000, in your bank account within 2 hours.');
  expect(en.eligibility).toMatch(/a month\.$/);
  expect(en.users).toBe('Trusted by over 3 million users.');
});

test('Indonesia: pinjaman Rp 1.000.000 to Rp 15.000.000 for an ANNUAL pay of Rp 5.000.000, no user count', () => {
  expect([id.money.loanMin, id.money.loanMax, id.money.minIncome].map((amount) => money(id, 'id', amount))).toEqual([
    'Rp 1.000.000',
    'Rp 15.000.000',
    'Rp 5.000.000',
  ]);
  expect(fill(id.offer, { min: 'Rp 1.000.000', max: 'Rp 15.000.000' })).toBe(
    'Pinjam mulai Rp 1.000.000 hingga Rp 15.000.000, cair ke rekening bank Anda dalam 2 jam.',
  );
  expect(id.eligibility).toContain('gaji tahunan');
  expect(id.users).toBeNull();
});

test('the loader hands out the pack of the language asked for', async () => {
  await expect(loadHomeText('id')).resolves.toBe(id);
  await expect(loadHomeText('en')).resolves.toBe(en);
});
