import { placeholdersOf, textLeaves } from '@portico/testing';
import type { CalculatorText } from '../calculator-text';
import { en } from '../en';
import { id } from '../id';
import { loadCalculatorText } from '../use-calculator-text';

const packs = { en, id } satisfies Record<string, CalculatorText>;

test('both packs have exactly the same keys, nested ones included', () => {
  expect(textLeaves(id).map(([path]) => path)).toEqual(textLeaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text and fills only the placeholders it is given', (_language, pack) => {
  for (const [path, value] of textLeaves(pack)) expect([path, typeof value === 'string' && value.trim() !== '']).toEqual([path, true]);
  expect(placeholdersOf(pack.illustrative)).toEqual(['fee', 'rate']);
  for (const field of [pack.amount, pack.days]) {
    expect(placeholdersOf(field.hint)).toEqual(['max', 'min']);
    expect(placeholdersOf(field.outOfRange)).toEqual(['max', 'min']);
    expect(placeholdersOf(field.notNumber)).toEqual(['example']);
    expect(placeholdersOf(field.empty)).toEqual([]);
  }
});

test('the labels outside tests rely on, in both languages', () => {
  expect([en.amount.label, en.days.label]).toEqual(['Loan amount', 'Term (days)']);
  expect([id.amount.label, id.days.label]).toEqual(['Jumlah pinjaman', 'Jangka waktu (hari)']);
});

test('the loader hands out the pack of the language asked for', async () => {
  await expect(loadCalculatorText('id')).resolves.toBe(id);
  await expect(loadCalculatorText('en')).resolves.toBe(en);
});
