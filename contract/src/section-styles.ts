/**
 * Where the page gets a section's stylesheets: from its own origin, scoped
 * to the section's slot by the front server (issue 46), never as the section
 * published them. The server answers the address and the page's loader
 * writes it, so both read it from here. Pure: no DOM, no Node.
 */
import { isSri } from './manifest';
import { SECTION_ID_PATTERN } from './section-entries';
import type { SectionId } from './sections';

/** The front server's answers of sections' stylesheets, on the page's origin. */
export const SECTION_STYLES_PATH = '/section-styles/';

/** The stylesheets scoped when a page asks for one (`scopedStylesheetAddress`), beside the copies named by their hash. */
export const ON_DEMAND_PATH = `${SECTION_STYLES_PATH}of/`;

/** How many stylesheets a section may name: more, and the server prepares none of them, and the page links no more than these. */
export const STYLESHEETS_PER_SECTION = 32;

/** A stylesheet to be scoped: whose, where its section published it, and the hash its manifest gives it. */
export interface ScopedStylesheetRequest {
  section: SectionId;
  href: string;
  integrity: string;
}

/**
 * The page's address of `href` (a stylesheet `section`'s manifest names with
 * `integrity`) scoped to the section's slot: the server fetches it from the
 * section's origin, checks it against the hash and scopes it, or answers an
 * error, and the section then has no stylesheet.
 */
export function scopedStylesheetAddress({ section, href, integrity }: ScopedStylesheetRequest): string {
  return `${ON_DEMAND_PATH}${section}?${new URLSearchParams({ href, integrity }).toString()}`;
}

/** The request a `scopedStylesheetAddress` names (path and query as asked), or undefined for anything else. */
export function readScopedStylesheetAddress(pathname: string, search: string): ScopedStylesheetRequest | undefined {
  if (!pathname.startsWith(ON_DEMAND_PATH)) return undefined;
  const section = pathname.slice(ON_DEMAND_PATH.length);
  const query = new URLSearchParams(search);
  const href = query.get('href');
  const integrity = query.get('integrity');
  if (!SECTION_ID_PATTERN.test(section) || href === null || !isSri(integrity) || query.getAll('href').length !== 1) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return { section, href: url.href, integrity };
}

/** A stylesheet as the page links it: the page's address of its scoped copy, and the section's URL for it (`data-href`, where webpack's CSS loader looks before it adds a link). */
export interface PageStylesheet {
  href: string;
  source: string;
}

/**
 * The page's links of the stylesheets a section's manifest names (`hashes`:
 * the manifest's hash of each file): each as its scoped copy, at most
 * STYLESHEETS_PER_SECTION; one with no hash is left out, as nothing could
 * check what would be scoped.
 */
export function pageStylesheets(section: SectionId, named: readonly string[], hashes: ReadonlyMap<string, string>): PageStylesheet[] {
  return named.slice(0, STYLESHEETS_PER_SECTION).flatMap((href) => {
    const integrity = hashes.get(href);
    return integrity === undefined || !isSri(integrity) ? [] : [{ href: scopedStylesheetAddress({ section, href, integrity }), source: href }];
  });
}
