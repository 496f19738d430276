import { placeholdersOf, textLeaves } from '@portico/testing';
import { en } from '../en';
import { id } from '../id';
import { LANGUAGE_NAMES, localeOf } from '@portico/contract/languages';
import type { TextPack } from '../text-pack';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';

const packs = { en, id } satisfies Record<string, TextPack>;

test("the host's two packs have exactly the same keys, nested ones included", () => {
  expect(textLeaves(id).map(([path]) => path)).toEqual(textLeaves(en).map(([path]) => path));
});

test.each(Object.entries(packs))('the %s pack has no empty text', (_language, pack) => {
  for (const [path, value] of textLeaves(pack)) {
    expect([path, typeof value === 'string' && value.trim() !== '']).toEqual([path, true]);
  }
});

test.each(Object.entries(packs))('the %s pack fills only placeholders its texts are given', (_language, pack) => {
  expect(placeholdersOf(pack.sections.loading)).toEqual(['section']);
  expect(placeholdersOf(pack.sections.failed)).toEqual(['section']);
  expect(placeholdersOf(pack.sections.override)).toEqual(['section', 'url']);
});

test('the English pack keeps the texts the specification quotes', () => {
  expect(en.nav.tabs).toEqual({ home: 'Home', about: 'About Us', contact: 'Contact us' });
  expect([en.footer.companyName, en.footer.email, en.footer.address]).toEqual(['Company Name', 'Contact Email', 'Contact Address']);
  expect(en.sections.tryAgain).toBe('Try again');
});

test('each language has its tag for <html lang> and Intl formatting', () => {
  expect(localeOf('en')).toBe('en-IN');
  expect(localeOf('id')).toBe('id');
  expect(LANGUAGE_NAMES.id.name).toBe('Bahasa Indonesia');
});

test("the packs' tab names are the built-in sections' labels, which the host's tabs show", () => {
  for (const { id, labels } of BUILT_IN_SECTIONS) {
    expect(en.nav.tabs[id as keyof typeof en.nav.tabs]).toBe(labels.en);
    expect(packs.id.nav.tabs[id as keyof typeof en.nav.tabs]).toBe(labels.id);
  }
});
