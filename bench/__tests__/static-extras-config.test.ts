import { readFileSync } from 'node:fs';
import { DEFAULT_CONFIG_PATH } from '@portico/config-server/config-answer';
import { MAX_SHOWN_SECTIONS } from '@portico/contract/section-entries';
import { pageSections, parseConfig, sectionGrant } from '@portico/shared-config/config';
import { staticExtrasCount, withStaticExtras } from '../static-extras-config';

// The "fed SSR + N static" column's config.json (run-bench.ts): the extra
// remotes added as sections through the product's own setting, which the
// server renders like any section. What the column measures is only as true
// as the page this file makes: every extra listed, in both languages, with
// no problem the reader would log and nothing granted script.

const manifests = (count: number) => Array.from({ length: count }, (_, index) => `http://127.0.0.1:${8780 + index}/mf-manifest.json`);
/** The default config.json with the built-in remotes named, as run-bench.ts's releasesConfig writes it. */
const defaults = {
  ...(JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as object),
  remotes: Object.fromEntries(['home', 'about', 'contact'].map((id, index) => [id, `http://127.0.0.1:${8771 + index}/mf-manifest.json`])),
};

test('as many extras as the nav holds beside the built-in three, however many are asked', () => {
  expect(staticExtrasCount(10)).toBe(MAX_SHOWN_SECTIONS - 3);
  expect(staticExtrasCount(2)).toBe(2);
});

test('every extra is a section of the page in both languages, after the built-in ones, static, and the file reads with no problem', () => {
  const count = staticExtrasCount(10);
  const { config, problems } = parseConfig(withStaticExtras(defaults, manifests(count)));
  expect(problems).toEqual([]);
  const extras = Array.from({ length: count }, (_, index) => `extra-${index}`);
  for (const language of ['en', 'id'] as const) {
    expect(pageSections(config, language).map((entry) => entry.id)).toEqual(['home', 'about', 'contact', ...extras]);
  }
  expect(extras.map((id) => config.remotes[id])).toEqual(manifests(count));
  expect(extras.filter((id) => sectionGrant(config, id).interactive)).toEqual([]);
});

test('one extra past the nav is named by the reader and left off the page: why the column adds no more', () => {
  const { config, problems } = parseConfig(withStaticExtras(defaults, manifests(staticExtrasCount(10) + 1)));
  expect(problems.map((problem) => problem.field)).toEqual([`sections.extra-${staticExtrasCount(10)}`]);
  expect(pageSections(config, 'en')).toHaveLength(MAX_SHOWN_SECTIONS);
});
