/**
 * What the server and the browser agree on about a section's island (its
 * React root of its own): no React here, so bootstrap reads it before
 * React's chunk has arrived.
 */
import type { SectionId } from '@portico/contract/sections';

/**
 * The `identifierPrefix` of a section's React root, on the server (its
 * section worker) and in the browser (its island) alike: the ids `useId`
 * gives inside a section then match between the two, and never clash with
 * the shell's or another section's, though each is a root of its own.
 */
export function islandIdPrefix(section: SectionId): string {
  return `${section}-`;
}

/** The attribute that marks each section's container, for the browser to find before React starts. */
export const ISLAND_ATTRIBUTE = 'data-section-island';

/** A section's container in `doc`, where the shell rendered one. */
export function islandContainerIn(doc: Document, section: SectionId): Element | null {
  return doc.querySelector(`[${ISLAND_ATTRIBUTE}="${section}"]`);
}

/**
 * The markup inside a section's container: one element, the island's React
 * root, around the section's HTML. The shell gives its container this markup
 * as `dangerouslySetInnerHTML`, so the element the island's root lives in is
 * not one the shell's React manages (React supports a root only in an element
 * no other root renders into).
 */
export function islandMarkup(sectionHtml: string): string {
  return `<div class="section-root">${sectionHtml}</div>`;
}

/** How a section's island starts in this page load. */
export interface IslandStart {
  /**
   * The markup inside the section's container as the page arrived
   * (`islandMarkup`): on the server, around the slot the front server fills
   * in; in the browser, whatever the server put there (its render of the
   * section, or the loading line), or nothing on a client-rendered page.
   */
  html: string;
  /** The server rendered this section: the browser hydrates that HTML instead of rendering afresh. */
  hydrate: boolean;
}

/**
 * Where an island is, on its container, for the page script and the host's
 * script to agree without sharing any code at run time: `requested` (the
 * page script asked for it), `hydrated` (its React root has hydrated the
 * server's HTML, or rendered the section afresh).
 */
export const ISLAND_STATE_ATTRIBUTE = 'data-island-state';
export type IslandState = 'requested' | 'hydrated';

/** Fired on the document when an island is requested (detail: its section id), and when one is hydrated. */
export const ISLAND_REQUESTED_EVENT = 'portico:island-requested';
export const ISLAND_HYDRATED_EVENT = 'portico:island-hydrated';
