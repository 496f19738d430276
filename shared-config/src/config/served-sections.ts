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
