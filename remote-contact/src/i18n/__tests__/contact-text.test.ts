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
  const given: Record<string, string[]> = {
    thanks: ['name'],
    privacy: ['period'],
    'retentionPeriod.one': ['days'],
    'retentionPeriod.other': ['days'],
    privacyDelete: ['email'],
    privacyDeleteOfficer: ['email', 'officer'],
    'delivery.rateLimited': ['wait'],
    'delivery.invalidField': ['field', 'limit'],
  };
  for (const [path, value] of textLeaves(pack)) {
    expect([path, placeholdersOf(String(value))]).toEqual([path, given[path] ?? []]);
  }
});

test.each(Object.entries(packs))('in the %s pack every delivery failure says the text is kept', (_language, pack) => {
  const kept = _language === 'en' ? /Your text is kept/ : /Teks yang Anda ketik tetap ada/;
  for (const [key, value] of Object.entries(pack.delivery)) {
    if (key !== 'waitAWhile') expect([key, value]).toEqual([key, expect.stringMatching(kept)]);
  }
});

test('no pack still says the message stays in the browser', () => {
  expect(`${en.privacy} ${en.thanks}`).not.toMatch(/stays in your browser|not been sent/);
  expect(`${id.privacy} ${id.thanks}`).not.toMatch(/tidak dikirim|tidak mengirimkannya/);
});

test('the English pack keeps the texts the specification quotes', () => {
  expect(en.incomplete).toBe('Please provide complete information!');
  expect(en.success).toBe('Submit successfully！');
  expect([en.name, en.telephone, en.message, en.send]).toEqual(['Name', 'Telephone', 'Message', 'Send message']);
  // Inside the Contact form; the host's own Try again appears only when Contact failed to load, so both never meet.
  expect([en.retry, id.retry]).toEqual(['Try again', 'Coba lagi']);
});

test('the loader hands out the pack of the language asked for', async () => {
  await expect(loadContactText('id')).resolves.toBe(id);
  await expect(loadContactText('en')).resolves.toBe(en);
});
