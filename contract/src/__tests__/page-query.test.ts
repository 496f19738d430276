import { languageFromSearch } from '../languages';
import { resolveRemotes } from '../override';
import { pageQuery } from '../page-query';
import { previewTokenIn } from '../preview';

const configured = { home: 'https://www.example/home/mf-manifest.json', contact: 'https://www.example/contact/mf-manifest.json' };
const allowed = ['https://preview.example'];
const candidate = 'https://preview.example/contact/pr-42/mf-manifest.json';

/** The page's query for an address's query, as the front server reads it (every preview token taken as valid). */
const pageOf = (search: string) => pageQuery(languageFromSearch(search), resolveRemotes(configured, allowed, search).overrides, previewTokenIn(search));

test('what the page does not use is left out: a campaign tag, a cache-buster, an unknown or refused override', () => {
  expect(pageOf('')).toBe('');
  expect(pageOf('?rt=1')).toBe('');
  expect(pageOf('?utm_source=whatsapp&rt=8&type=1')).toBe('');
  expect(pageOf(`?remote.contact=${encodeURIComponent('https://evil.example/x/mf-manifest.json')}`)).toBe('');
  expect(pageOf('?remote.footer=https://preview.example/x')).toBe('');
  expect(pageOf('?type=2&rt=1')).toBe('?type=2');
});

test('the language, an accepted override and a preview token are kept, in one spelling whatever the order and the encoding', () => {
  const expected = `?type=2&remote.contact=${encodeURIComponent(candidate)}&preview=abc.def`;
  expect(pageOf(`?preview=abc.def&remote.contact=${encodeURIComponent(candidate)}&x=1&type=2`)).toBe(expected);
  expect(pageOf(`?type=2&remote.contact=${candidate}&preview=abc.def`)).toBe(expected);
});

test('the page query reads back as the same language, overrides and token', () => {
  const query = pageOf(`?x=1&type=2&remote.contact=${encodeURIComponent(candidate)}&preview=t`);
  expect(languageFromSearch(query)).toBe('id');
  expect(resolveRemotes(configured, allowed, query).overrides).toEqual([{ section: 'contact', url: candidate }]);
  expect(previewTokenIn(query)).toBe('t');
});
