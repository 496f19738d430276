import { marketOf, type Language } from '@portico/contract/languages';
import { shownSections, type SectionEntry } from '@portico/contract/section-entries';
import type { SiteConfig } from './config-schema';
import { sectionsFromConfig } from './parse-sections';

/**
 * The sections a config.json serves, in tab order: listed, not hidden, and
 * with a manifest URL (an added section with no active release has none, so
 * it is not shown). What the front server fetches, renders and names in the
 * page's CSP; a hidden one sends no request at all.
 */
export function servedSections(config: Pick<SiteConfig, 'sections' | 'remotes'>): SectionEntry[] {
  return sectionsFromConfig(config).filter((entry) => !entry.hidden && config.remotes[entry.id] !== undefined);
}

/** The tabs a visitor in `language`'s market gets: the served sections that show in that market. */
export function pageSections(config: Pick<SiteConfig, 'sections' | 'remotes'>, language: Language): SectionEntry[] {
  return shownSections(servedSections(config), marketOf(language));
}

/**
 * The page's tabs for a visitor in `language`'s market, in order: every
 * listed section shown there, a built-in one always (with no manifest URL
 * its panel shows why it cannot load, as before sections were data), an
 * added one only with its manifest URL (a section never activated is not
 * shown). The shell worker's list, the page data's, and the client-rendered
 * page's.
 */
export function tabSections(config: Pick<SiteConfig, 'sections' | 'remotes'>, language: Language): SectionEntry[] {
  return shownSections(sectionsFromConfig(config), marketOf(language)).filter((entry) => entry.builtIn || config.remotes[entry.id] !== undefined);
}
