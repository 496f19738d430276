import { languageFromSearch, marketOf, marketTagOf, searchWithLanguage } from '../languages';

test.each([
  ['', 'en'],
  ['?type=1', 'en'],
  ['?type=2', 'id'],
  ['?remote.home=x&type=2', 'id'],
  ['?type=3', 'en'],
  ['?type=', 'en'],
  ['?type=id', 'en'],
  ['?TYPE=2', 'en'],
] as const)('"%s" is %s; a missing or unknown type falls back to English', (search, language) => {
  expect(languageFromSearch(search)).toBe(language);
});

test('switching language sets type and keeps every other parameter exactly as written', () => {
  const override = 'remote.contact=http%3A%2F%2Flocalhost%3A9083%2Fmf-manifest.json';
  expect(searchWithLanguage('', 'id')).toBe('?type=2');
  expect(searchWithLanguage('?type=2', 'en')).toBe('?type=1');
  expect(searchWithLanguage(`?${override}`, 'id')).toBe(`?${override}&type=2`);
  expect(searchWithLanguage(`?a=1&type=1&${override}`, 'id')).toBe(`?a=1&type=2&${override}`);
  expect(searchWithLanguage('?type=1&type=2&b', 'id')).toBe('?type=2&b');
});

test("each type is one market's page: ?type=1 India, ?type=2 Indonesia, tagged for hreflang with the market", () => {
  expect([marketOf(languageFromSearch('?type=1')), marketOf(languageFromSearch('?type=2'))]).toEqual(['IN', 'ID']);
  expect([marketTagOf('en'), marketTagOf('id')]).toEqual(['en-IN', 'id-ID']);
});
