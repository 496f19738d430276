import { placeholdersOf, textLeaves } from '@portico/testing';
import type { ContactText } from '../contact-text';
import { loadContactText } from '../use-contact-text';
import { en } from '../en';
import { id } from '../id';

const packs = { en, id } satisfies Record<string, ContactText>;

test('both packs have exactly the same keys', () => {
  expect(textLeaves(id).map(([path]) => path)).toEqual(textLeaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text', (_language, pack) => {
  for (const [path, value] of textLeaves(pack)) {
    expect([path, typeof value === 'string' && value.trim() !== '']).toEqual([path, true]);
  }
});

test.each(Object.entries(packs))('the %s pack fills only placeholders its texts are given', (_language, pack) => {
  expect(placeholdersOf(pack.thanks)).toEqual(['name']);
});

test('the English pack keeps the texts the specification quotes', () => {
  expect(en.incomplete).toBe('Please provide complete information!');
  expect(en.success).toBe('Submit successfully！');
  expect([en.name, en.telephone, en.message, en.send]).toEqual(['Name', 'Telephone', 'Message', 'Send message']);
});

test('the loader hands out the pack of the language asked for', async () => {
  await expect(loadContactText('id')).resolves.toBe(id);
  await expect(loadContactText('en')).resolves.toBe(en);
});
