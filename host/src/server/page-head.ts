import type { Language, SiteConfig } from '@portico/shared-config';

export interface PageHeadInput {
  config: SiteConfig;
  language: Language;
  /** The visitor-facing origin, `https://www.example`, for absolute URLs. */
  origin: string;
  pathname: string;
  search: string;
}

/**
 * The tags a server-rendered page adds to `<head>` (description, canonical
 * and hreflang links, Open Graph, JSON-LD): the seam for the search and
 * link-preview work, which fills it with a pure function of these inputs.
 * Whatever it returns is inserted as it is, so it must escape what it writes.
 */
export function pageHead(_input: PageHeadInput): string {
  return '';
}
