import { placeholdersOf, textLeaves } from '@portico/testing';
import { en } from '../en';
import { id } from '../id';
import type { SectionText } from '../section-text';
import { loadTexts } from '../use-texts';

const packs = { en, id } satisfies Record<string, SectionText>;

test('both packs have exactly the same keys, nested ones included', () => {
  expect(textLeaves(id).map(([path]) => path)).toEqual(textLeaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text and fills only the placeholders it is given', (_language, pack) => {
  for (const [path, value] of textLeaves(pack)) expect([path, typeof value === 'string' && value.trim() !== '']).toEqual([path, true]);
  expect(placeholdersOf(pack.greeting)).toEqual(['name']);
});

test('the loader hands out the pack of the language asked for', async () => {
  await expect(loadTexts('id')).resolves.toBe(id);
  await expect(loadTexts('en')).resolves.toBe(en);
});
