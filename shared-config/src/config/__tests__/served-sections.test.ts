import { sampleConfig } from '@portico/testing/sample-config';
import { parseConfig } from '../parse-config';
import { pageSections, servedSections, tabSections } from '../served-sections';

const FAQ = { labels: { en: 'FAQ', id: 'Tanya Jawab' } };
const idsOf = (entries: readonly { id: string }[]) => entries.map(({ id }) => id);

// Contact's URL dropped (as a bad one is), About hidden, an added section limited to Indonesia, one never activated (no URL).
const { config } = parseConfig({
  ...sampleConfig,
  remotes: { home: sampleConfig.remotes.home, about: sampleConfig.remotes.about, faq: 'https://faq.example/mf-manifest.json' },
  sections: { about: { hidden: true }, faq: { ...FAQ, markets: ['ID'], after: null }, news: FAQ },
});

test('served: listed, not hidden, with a manifest URL; a page: those shown in its market', () => {
  expect(idsOf(servedSections(config))).toEqual(['faq', 'home']);
  expect(idsOf(pageSections(config, 'en'))).toEqual(['home']);
  expect(idsOf(pageSections(config, 'id'))).toEqual(['faq', 'home']);
});

test("the page's tabs: a built-in section even without a URL (its panel says why), an added one only with its URL, none hidden, by market", () => {
  expect(idsOf(tabSections(config, 'en'))).toEqual(['home', 'contact']);
  expect(idsOf(tabSections(config, 'id'))).toEqual(['faq', 'home', 'contact']);
});
