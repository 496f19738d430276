import { usePortico } from '@portico/shared-config';
import { pageSectionsOf, type PageSection } from '@portico/contract/page-data';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import { use } from 'react';
import { PageSectionsContext } from './page-sections-context';

/**
 * The page's sections (page-sections-context.ts). The labels come from the
 * list alone: the built-in sections' from the contract's BUILT_IN_SECTIONS
 * (which the host's text packs' `nav.tabs` equal), an added one's from its
 * entry, so every tab is named by one source.
 */
export function usePageSections(): readonly PageSection[] {
  const { language } = usePortico();
  return use(PageSectionsContext) ?? pageSectionsOf(BUILT_IN_SECTIONS, language);
}

/** A section's label on this page; its id where the page does not list it (an override's notice for a section not shown). */
export function labelIn(sections: readonly PageSection[], id: string): string {
  return sections.find((section) => section.id === id)?.label ?? id;
}
