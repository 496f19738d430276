/**
 * What the server and the browser agree on about a section's island (its
 * React root of its own): no React here, so bootstrap reads it before
 * React's chunk has arrived.
 */
import { ISLAND_ATTRIBUTE } from '@portico/contract/page-parts';
import type { SectionId } from '@portico/contract/sections';

export { ISLAND_ATTRIBUTE, ISLAND_STATE_ATTRIBUTE, islandIdPrefix } from '@portico/contract/page-parts';

const ISLAND = `[${ISLAND_ATTRIBUTE}]`;

/**
 * The section's container around `element`, or null in the shell. The
 * outermost one: the shell never puts a container inside another, so a
 * marker inside one is part of that section's HTML, not a section of its own.
 */
export function islandAround(element: Element): Element | null {
  let island = element.closest(ISLAND);
  for (let outer = island?.parentElement?.closest(ISLAND); outer; outer = outer.parentElement?.closest(ISLAND)) island = outer;
  return island;
}

/** Whether `element` is the shell's own, outside every section's markup. */
export function inShell(element: Element): boolean {
  return element.closest(ISLAND) === null;
}

/** Every section's container in `root`, found by position: the shell's, never a marker inside a section's HTML. */
export function islandContainers(root: ParentNode): Element[] {
  return [...root.querySelectorAll(ISLAND)].filter((element) => !element.parentElement?.closest(ISLAND));
}

/** A section's container in `doc`, where the shell rendered one. */
export function islandContainerIn(doc: ParentNode, section: SectionId): Element | null {
  return islandContainers(doc).find((element) => element.getAttribute(ISLAND_ATTRIBUTE) === section) ?? null;
}

/**
 * The markup inside a section's container: one element, the island's React
 * root, around the section's HTML (before it, on a server-rendered page, the
 * section's stylesheets may be linked: the root is the last element). The shell gives its container this markup
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

/** Fired on the document when an island is requested (detail: its section id), and when one is hydrated. */
export const ISLAND_REQUESTED_EVENT = 'portico:island-requested';
export const ISLAND_HYDRATED_EVENT = 'portico:island-hydrated';
