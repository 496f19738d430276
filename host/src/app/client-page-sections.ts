import { tabSections, type SiteConfig } from '@portico/shared-config/config';
import { pageSectionsOf, type PageSection } from '@portico/contract/page-data';
import type { Language } from '@portico/contract/languages';

/**
 * The sections of a page rendered in the browser (no server chose them:
 * nginx's static page, `npm run dev`): config.json's list with the built-in
 * defaults, as the server's shell has them (tabSections), labelled in the
 * page's language.
 */
export function clientPageSections(config: Pick<SiteConfig, 'sections' | 'remotes'>, language: Language): PageSection[] {
  return pageSectionsOf(tabSections(config, language), language);
}
