import { sampleConfig } from '@portico/testing/sample-config';
import { BUILT_IN_SECTIONS, type SectionEntry } from '@portico/contract/section-entries';
import { sectionGrant } from '../config-rules';
import { parseConfig } from '../parse-config';
import { sectionsFromConfig } from '../parse-sections';

const FAQ = { labels: { en: 'FAQ', id: 'Tanya Jawab' } };
const faqRemote = 'https://faq.example/mf-manifest.json';
const withSections = (sections: unknown, remotes: Record<string, unknown> = {}) =>
  parseConfig({ ...sampleConfig, remotes: { ...sampleConfig.remotes, ...remotes }, sections });
/** An entry by id, whatever the id's type says. */
const entryOf = (entries: readonly SectionEntry[], id: string) => entries.find((entry) => String(entry.id) === id);
const idsOf = (sections: unknown, remotes?: Record<string, unknown>) => sectionsFromConfig(withSections(sections, remotes).config).map(({ id }) => id);

describe('remotes: a manifest URL for any section id', () => {
  test('an added section with a hyphenated id keeps its URL beside the built-in ones', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remotes: { ...sampleConfig.remotes, 'repay-calc': faqRemote } });
    expect(problems).toEqual([]);
    expect(config.remotes['repay-calc']).toBe(faqRemote);
  });

  test.each([
    ['api', 'reserved word'],
    ['tab-home', 'starts with "tab-"'],
    ['Faq', 'lowercase'],
  ])('remotes.%s is named (%s) and nothing loads from it', (key, reason) => {
    const { config, problems } = parseConfig({ ...sampleConfig, remotes: { ...sampleConfig.remotes, [key]: faqRemote } });
    expect(problems).toEqual([{ field: `remotes.${key}`, message: expect.stringContaining(reason) }]);
    expect(config.remotes).toEqual(sampleConfig.remotes);
  });

  test("an added section's URL is held to http(s) like a built-in one", () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remotes: { ...sampleConfig.remotes, faq: 'javascript:alert(1)' } });
    expect(problems.map(({ field }) => field)).toEqual(['remotes.faq']);
    expect(config.remotes.faq).toBeUndefined();
  });
});

describe('sectionsFromConfig: the built-in three, then what config.json adds', () => {
  test('a config.json that adds nothing lists the built-in sections exactly', () => {
    expect(sectionsFromConfig(parseConfig(sampleConfig).config)).toEqual(BUILT_IN_SECTIONS);
  });

  test('an added section is listed with its labels, its origin, no script and every market, last by default', () => {
    const { config, problems } = withSections({ faq: FAQ }, { faq: faqRemote });
    expect(problems).toEqual([]);
    const faq = sectionsFromConfig(config).at(-1);
    expect(faq).toEqual({
      id: 'faq',
      labels: FAQ.labels,
      origins: ['https://faq.example'],
      interactive: false,
      markets: ['IN', 'ID'],
      hidden: false,
      builtIn: false,
    });
    expect(sectionGrant(config, 'faq')).toEqual({ interactive: false });
  });

  test('after places a section: after a section, null first, none last, in the order the file lists them', () => {
    expect(idsOf({ faq: { ...FAQ, after: 'home' }, calc: { ...FAQ, after: null }, news: FAQ })).toEqual(['calc', 'home', 'faq', 'about', 'contact', 'news']);
    // A built-in one moves too, and an after naming no listed section places it last.
    expect(idsOf({ home: { after: 'contact' }, faq: { ...FAQ, after: 'gone' } })).toEqual(['about', 'contact', 'home', 'faq']);
  });

  test('hidden and markets are kept as data, for any section', () => {
    const { config, problems } = withSections({ about: { hidden: true }, faq: { ...FAQ, markets: ['ID'], interactive: true } });
    expect(problems).toEqual([]);
    const entries = sectionsFromConfig(config);
    expect(entryOf(entries, 'about')).toMatchObject({ hidden: true, builtIn: true, labels: { en: 'About Us' } });
    expect(entryOf(entries, 'faq')).toMatchObject({ markets: ['ID'], interactive: true, hidden: false });
  });

  test('a grant alone (as the server writes one for a section the store added) lists nothing', () => {
    const { config, problems } = withSections({ calculator: { interactive: true } });
    expect(problems).toEqual([]);
    expect(sectionsFromConfig(config).map(({ id }) => id)).toEqual(['home', 'about', 'contact']);
    expect(sectionGrant(config, 'calculator')).toEqual({ interactive: true });
  });
});

describe('sections: bad entries are named by field and dropped, the rest used', () => {
  test('an added section missing a label, or with markup in one, is named and not listed', () => {
    const { config, problems } = withSections({
      faq: { labels: { en: 'FAQ' }, after: 'home' },
      news: { labels: { en: '<b>News</b>', id: 'Berita' } },
      calc: FAQ,
    });
    expect(problems).toEqual([
      { field: 'sections.faq.labels.id', message: expect.stringContaining('required') },
      { field: 'sections.news.labels.en', message: expect.stringContaining('plain text') },
    ]);
    expect(sectionsFromConfig(config).map(({ id }) => id)).toEqual(['home', 'about', 'contact', 'calc']);
  });

  test('a bad after, markets or hidden is named and that field alone dropped; a bad hidden hides (fails closed)', () => {
    const { config, problems } = withSections({
      faq: { ...FAQ, after: 'Home!', markets: ['US'] },
      news: { ...FAQ, hidden: 'yes' },
      calc: { ...FAQ, after: 'calc' },
    });
    expect(problems).toEqual([
      { field: 'sections.faq.after', message: expect.stringContaining('placed last') },
      { field: 'sections.faq.markets', message: expect.stringContaining('"US" is not a market') },
      { field: 'sections.news.hidden', message: expect.stringContaining('hidden') },
      { field: 'sections.calc.after', message: expect.stringContaining('another section') },
    ]);
    const entries = sectionsFromConfig(config);
    expect(entries.map(({ id }) => id)).toEqual(['home', 'about', 'contact', 'faq', 'news', 'calc']);
    expect(entryOf(entries, 'faq')?.markets).toEqual(['IN', 'ID']);
    expect(entryOf(entries, 'news')?.hidden).toBe(true);
  });

  test('an entry that is not an object, or a field the file cannot mean, is named', () => {
    const { config, problems } = withSections({ faq: 'FAQ', news: { ...FAQ, label: 'News' } });
    expect(problems).toEqual([
      { field: 'sections.faq', message: expect.stringContaining('must be an object') },
      { field: 'sections.news.label', message: 'is not a known field' },
    ]);
    expect(sectionsFromConfig(config).map(({ id }) => id)).toEqual(['home', 'about', 'contact', 'news']);
  });

  test('the nav holds 8: a shown section past them is named and not listed, a hidden one still is', () => {
    const added = Object.fromEntries(['s-one', 's-two', 's-three', 's-four', 's-five', 's-six'].map((id) => [id, FAQ]));
    const { config, problems } = withSections({ ...added, spare: { ...FAQ, hidden: true } });
    expect(problems).toEqual([{ field: 'sections.s-six', message: expect.stringContaining('8 sections') }]);
    const entries = sectionsFromConfig(config);
    expect(entries).toHaveLength(9);
    expect(entries.filter(({ hidden }) => !hidden)).toHaveLength(8);
    // Hiding a built-in one makes room.
    expect(withSections({ ...added, home: { hidden: true } }).problems).toEqual([]);
  });
});

test('what the server writes of an added section (its preview, its release for the visit report) and a pin of its manifest are kept, by the same id grammar', () => {
  const preview = { section: 'repay-calc', release: 'repay-calc-1', buildId: 'abc123', version: '1.0.0', expiresAt: '2026-11-26T10:00:00.000Z' };
  const health = { releases: { 'repay-calc': 'repay-calc-1' }, token: 'signed' };
  const pin = `sha384-${'A'.repeat(64)}`;
  const { config, problems } = parseConfig({
    ...sampleConfig,
    remotes: { ...sampleConfig.remotes, 'repay-calc': faqRemote },
    preview,
    health,
    remoteIntegrity: { 'repay-calc': pin },
  });
  expect(problems).toEqual([]);
  expect(config.preview).toEqual(preview);
  expect(config.health).toEqual(health);
  expect(config.remoteIntegrity).toEqual({ 'repay-calc': pin });
});
