import { ISLAND_ATTRIBUTE, islandContainers } from '../remotes/island-contract';

/** Where a language switch leaves what was typed, for the page in the other language to put back. */
export const DRAFTS_KEY = 'portico:drafts';

export type Field = HTMLInputElement | HTMLTextAreaElement;
const TEXT_TYPES = ['text', 'tel', 'email', 'search', 'url', 'number'];

/**
 * Each field a visitor types into, in the sections, by `<section>/<name>`:
 * the same in both languages and however the section was rendered. A field
 * is its container's section's, whatever markers a section's HTML holds.
 */
export function draftFields(root: ParentNode): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const island of islandContainers(root)) {
    for (const field of island.querySelectorAll<Field>('input[name], textarea[name]')) {
      const typed = field instanceof HTMLTextAreaElement || (TEXT_TYPES.includes(field.type) && field.tabIndex !== -1);
      if (typed) fields.set(`${island.getAttribute(ISLAND_ATTRIBUTE)}/${field.name}`, field);
    }
  }
  return fields;
}

/**
 * Keeps what was typed in the sections' fields for the next page load in
 * this tab (a language switch is a navigation: the page comes back from the
 * server in the other language). Session storage only, never sent anywhere,
 * and read once by the next page.
 */
export function saveDrafts(root: ParentNode, storage: Storage | undefined): void {
  const typed = Object.fromEntries([...draftFields(root)].filter(([, field]) => field.value !== '').map(([key, field]) => [key, field.value]));
  if (!storage || Object.keys(typed).length === 0) return;
  try {
    storage.setItem(DRAFTS_KEY, JSON.stringify(typed));
  } catch {
    // Storage full or refused (private mode): the switch goes on without the drafts.
  }
}
