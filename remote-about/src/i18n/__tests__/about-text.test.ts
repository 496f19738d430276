import { placeholdersOf, textLeaves } from '@portico/testing';
import type { AboutText } from '../about-text';
import { loadAboutText } from '../use-about-text';
import { en } from '../en';
import { id } from '../id';

const packs = { en, id } satisfies Record<string, AboutText>;

test('both packs have exactly the same keys, nested ones included', () => {
  expect(textLeaves(id).map(([path]) => path)).toEqual(textLeaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text', (_language, pack) => {
  for (const [path, value] of textLeaves(pack)) {
    expect([path, typeof value === 'string' && value.trim() !== '']).toEqual([path, true]);
  }
});

test.each(Object.entries(packs))('the %s pack fills only placeholders its texts are given', (_language, pack) => {
  expect(placeholdersOf(pack.body)).toEqual(['company']);
  expect(placeholdersOf(pack.regulator.licensed)).toEqual(['company']);
});

test("each pack's escalation names its market's regulator and channel: English India's RBI, Indonesian Indonesia's OJK and 157", () => {
  expect(placeholdersOf(en.regulator.escalation)).toEqual(['link']);
  expect(en.regulator.escalation).toContain('Reserve Bank of India');
  expect(placeholdersOf(id.regulator.escalation)).toEqual(['link', 'phone']);
  expect(id.regulator.escalation).toContain('Otoritas Jasa Keuangan');
});

test('the loader hands out the pack of the language asked for', async () => {
  await expect(loadAboutText('id')).resolves.toBe(id);
  await expect(loadAboutText('en')).resolves.toBe(en);
});
