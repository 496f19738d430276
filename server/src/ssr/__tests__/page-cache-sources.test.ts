import { PageCosts } from '../page-budget';
import { COMPRESSION_LANES, manifestTag, PageCache } from '../page-cache';

// What a section's change drops from the page cache, and what it keeps
// (issue 46: every cached page was dropped at each change). The server
// with a manifest that changes at every poll: churning-sections.test.ts.

const HOME = 'https://home.example/mf-manifest.json';
const PREVIEWED_HOME = 'https://home.example/preview-7/mf-manifest.json';
const CONTACT = 'https://contact.example/mf-manifest.json';

function cacheWithPages() {
  const pages = new PageCache(true, new PageCosts(COMPRESSION_LANES));
  // The served config, in both languages; a preview's config naming another Home manifest; a page with Contact left to the browser.
  pages.add('served en', '<p>en</p>', undefined, { manifests: [manifestTag(HOME, 'h1'), manifestTag(CONTACT, 'c1')], rendered: ['home', 'contact'] });
  pages.add('served id', '<p>id</p>', undefined, { manifests: [manifestTag(HOME, 'h1'), manifestTag(CONTACT, 'c1')], rendered: ['home', 'contact'] });
  pages.add('preview', '<p>preview</p>', undefined, {
    manifests: [manifestTag(PREVIEWED_HOME, 'p1'), manifestTag(CONTACT, 'c1')],
    rendered: ['home', 'contact'],
  });
  pages.add('contact in the browser', '<p>home only</p>', undefined, { manifests: [manifestTag(HOME, 'h1'), manifestTag(CONTACT, 'c1')], rendered: ['home'] });
  const kept = () => ['served en', 'served id', 'preview', 'contact in the browser'].filter((key) => pages.get(key) !== undefined);
  return { pages, kept };
}

test("a new version of Home's manifest drops the pages made from the one before; a config naming another Home manifest keeps its pages", () => {
  const { pages, kept } = cacheWithPages();
  pages.forgetVersion(HOME, 'h1');
  expect(kept()).toEqual(['preview']);
});

test('a version no page was made from drops nothing', () => {
  const { pages, kept } = cacheWithPages();
  pages.forgetVersion(HOME, 'h0');
  pages.forgetVersion(PREVIEWED_HOME, undefined);
  expect(kept()).toHaveLength(4);
});

test('a manifest that appears drops the pages made while it was not there yet (they could not inline it)', () => {
  const pages = new PageCache(true, new PageCosts(COMPRESSION_LANES));
  pages.add('before Home', '<p></p>', undefined, { manifests: [manifestTag(HOME, undefined)], rendered: [] });
  pages.forgetVersion(HOME, undefined);
  expect(pages.get('before Home')).toBeUndefined();
});

test("Contact's worker replaced: the pages holding Contact's HTML go; one with Contact left to the browser stays", () => {
  const { pages, kept } = cacheWithPages();
  pages.forgetSection('contact');
  expect(kept()).toEqual(['contact in the browser']);
});
