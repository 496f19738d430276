/**
 * The names by which the page finds its own parts, and the rule that keeps
 * them out of a section's reach. A section's HTML (written by its node
 * build, untrusted) goes into the page beside the shell's; whatever the page
 * script, the host or the hydration step looks up must be something that
 * HTML cannot forge. The front server's HTML check refuses what this module
 * reserves; the page finds its parts by these names, outside the sections'
 * markup. Pure: no DOM, no Node.
 */
import { type SectionId } from './sections';

/** The element id of the hydration data (a `<script>`, which no section may write). */
export const PAGE_DATA_ID = 'portico-page-data';

/** The attribute that marks each section's container, for the browser to find before React starts. */
export const ISLAND_ATTRIBUTE = 'data-section-island';

/**
 * Where an island is, on its container, for the page script and the host's
 * script to agree without sharing any code at run time: `requested` (the
 * page script asked for it), `hydrated` (its React root has hydrated the
 * server's HTML, or rendered the section afresh).
 */
export const ISLAND_STATE_ATTRIBUTE = 'data-island-state';

/** The page's own markers: a section's HTML never carries them. */
export const PAGE_ATTRIBUTES: readonly string[] = [ISLAND_ATTRIBUTE, ISLAND_STATE_ATTRIBUTE];

/**
 * The `identifierPrefix` of a section's React root, on the server (its
 * section worker) and in the browser (its island) alike: the ids `useId`
 * gives inside a section then match between the two, and never clash with
 * the shell's or another section's, though each is a root of its own.
 */
export function islandIdPrefix(section: SectionId): string {
  return `${section}-`;
}

/** What React puts before the prefix in a `useId` (`_contact-R_0_`, `«contact-R0»` in older versions). */
const REACT_ID_MARK = /^[^\p{L}\p{N}]+/u;

/**
 * Whether `id` is one of `section`'s own: it starts with the section's
 * prefix (after React's mark). Every other id belongs to the page (the
 * shell's, the page data's) or to another section, and a name with no `-`
 * in it could be a script's global: an element's id is a property of
 * `window`, so `<div id="webpackChunkportico_host">` would stand where the
 * bundler keeps its chunks, and `id="portico_contact"` where the federation
 * runtime looks for Contact's container. No identifier holds a `-`, so none
 * is ever a section's id.
 */
export function sectionOwnsId(section: SectionId, id: string): boolean {
  return id.replace(REACT_ID_MARK, '').startsWith(islandIdPrefix(section));
}
