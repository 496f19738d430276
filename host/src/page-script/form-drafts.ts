import { ISLAND_ATTRIBUTE } from '../remotes/island-contract';

/** Where a language switch leaves what was typed, for the page in the other language to put back. */
export const DRAFTS_KEY = 'portico:drafts';

type Field = HTMLInputElement | HTMLTextAreaElement;

/** The fields a visitor types into, in the sections: text-like inputs and text areas, each with an id. */
function draftFields(root: ParentNode): Field[] {
  const fields = root.querySelectorAll<Field>(`[${ISLAND_ATTRIBUTE}] input[id], [${ISLAND_ATTRIBUTE}] textarea[id]`);
  return [...fields].filter((field) => {
    if (field instanceof HTMLTextAreaElement) return true;
    return ['text', 'tel', 'email', 'search', 'url', 'number', ''].includes(field.type) && field.tabIndex !== -1;
  });
}

/**
 * Keeps what was typed in the sections' fields for the next page load in
 * this tab (a language switch is a navigation: the page comes back from the
 * server in the other language). Session storage only, never sent anywhere,
 * and read once by the next page.
 */
export function saveDrafts(root: ParentNode, storage: Storage | undefined): void {
  const typed = Object.fromEntries(draftFields(root).filter((field) => field.value !== '').map((field) => [field.id, field.value]));
  if (!storage || Object.keys(typed).length === 0) return;
  try {
    storage.setItem(DRAFTS_KEY, JSON.stringify(typed));
  } catch {
    // Storage full or refused (private mode): the switch goes on without the drafts.
  }
}

/**
 * Puts back what `saveDrafts` kept, into the fields of the same ids that are
 * still empty, once; returns how many. Untrusted text (anything in the tab
 * could have written it) only ever becomes a field's value.
 */
export function restoreDrafts(root: ParentNode, storage: Storage | undefined): number {
  let saved: unknown;
  try {
    const text = storage?.getItem(DRAFTS_KEY);
    storage?.removeItem(DRAFTS_KEY);
    saved = text ? JSON.parse(text) : undefined;
  } catch {
    return 0;
  }
  if (typeof saved !== 'object' || saved === null) return 0;
  let restored = 0;
  for (const field of draftFields(root)) {
    const value = (saved as Record<string, unknown>)[field.id];
    if (typeof value !== 'string' || field.value !== '') continue;
    field.value = value;
    restored += 1;
  }
  return restored;
}
