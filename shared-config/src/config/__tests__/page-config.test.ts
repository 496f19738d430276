import { sampleConfig } from '@portico/testing/sample-config';
import { inMarket } from '../config-rules';
import { pageConfigOf } from '../page-config';
import { parseConfig } from '../parse-config';

const written = {
  ...sampleConfig,
  byMarket: { IN: { email: 'help@portico.example' }, ID: { address: 'Jl. Jenderal Sudirman Kav. 1, Jakarta', copyright: '© 2026 Portico Kredit.' } },
};

test('byMarket is read field by field: a bad field and a market the site has no page for are named, the rest kept', () => {
  const { config, problems } = parseConfig({
    ...sampleConfig,
    byMarket: { ID: { email: 'not an address', address: 'Jakarta' }, SG: { address: 'Singapore' } },
  });
  expect(problems).toEqual([
    { field: 'byMarket.SG', message: 'is not a known field' },
    { field: 'byMarket.ID.email', message: 'is not a valid email' },
  ]);
  expect(config.byMarket).toEqual({ ID: { address: 'Jakarta' } });
});

test("a page's config is its market's: its own values over the top-level ones, its copyright line first", () => {
  const { config } = parseConfig(written);
  expect(inMarket(config, 'id')).toMatchObject({
    address: 'Jl. Jenderal Sudirman Kav. 1, Jakarta',
    email: sampleConfig.email,
    copyright: '© 2026 Portico Kredit.',
  });
  expect(inMarket(config, 'en')).toMatchObject({ address: sampleConfig.address, email: 'help@portico.example', copyright: sampleConfig.copyright });
  // Applied twice (the shell's context, then an island's), the same.
  expect(inMarket(inMarket(config, 'id'), 'id')).toEqual(inMarket(config, 'id'));
});

test("the page data carries only the page's market's blocks of legal and byMarket, and its language's copyright line", () => {
  const page = pageConfigOf(written, 'id') as typeof written;
  expect(Object.keys(page.legal!)).toEqual(['ID']);
  expect(page.byMarket).toEqual({ ID: written.byMarket.ID });
  expect(page.copyrightByLanguage).toEqual({ id: sampleConfig.copyrightByLanguage!.id });
  expect(JSON.stringify(page)).not.toContain('MG Road, Bengaluru 560001, India (sample)');
  // What the page shows is what the whole file gives that market.
  const shown = (raw: unknown) => {
    const { comName, email, address, copyright, legal } = inMarket(parseConfig(raw).config, 'id');
    return { comName, email, address, copyright, lender: legal?.ID };
  };
  expect(shown(page)).toEqual(shown(written));
  // Not an object (named by the server's reading): passed on as it is.
  expect(pageConfigOf('not json', 'en')).toBe('not json');
});
