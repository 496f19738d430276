import { SECTION_OUTCOME_EVENT } from '../health/visit-outcomes';
import { ISLAND_ATTRIBUTE, islandContainers } from '../remotes/island-contract';

/** Where a language switch leaves what was typed, for the page in the other language to put back. */
const DRAFTS_KEY = 'portico:drafts';

type Field = HTMLInputElement | HTMLTextAreaElement;
const TEXT_TYPES = ['text', 'tel', 'email', 'search', 'url', 'number'];

/**
 * Each field a visitor types into, in the sections, by `<section>/<name>`:
 * the same in both languages and however the section was rendered. A field
 * is its container's section's, whatever markers a section's HTML holds.
 */
function draftFields(root: ParentNode): Map<string, Field> {
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

/** What `saveDrafts` kept, taken out of storage (read once); text only. */
function takeDrafts(storage: Storage | undefined): Map<string, string> {
  try {
    const text = storage?.getItem(DRAFTS_KEY);
    storage?.removeItem(DRAFTS_KEY);
    const saved: unknown = text ? JSON.parse(text) : undefined;
    if (typeof saved !== 'object' || saved === null) return new Map();
    return new Map(Object.entries(saved).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return new Map();
  }
}

/**
 * Sets a field's value as typing would: through the element's own setter
 * and an `input` event, so a section's React (hydrated or not yet) sees a
 * change, as it would a keystroke. Untrusted text (anything in the tab could
 * have written the storage) only ever becomes a field's value.
 */
function typeInto(field: Field, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Puts back what the last page kept, into the fields that are there and
 * still empty: now (the server's HTML), and again as each section arrives
 * (a section rendered in the browser has its fields only then). Each draft
 * once. Returns the clean-up.
 */
export function restoreDrafts(doc: Document, storage: Storage | undefined): () => void {
  const drafts = takeDrafts(storage);
  const fill = () => {
    for (const [key, field] of draftFields(doc)) {
      const value = drafts.get(key);
      if (value === undefined || field.value !== '') continue;
      drafts.delete(key);
      typeInto(field, value);
    }
  };
  fill();
  const win = doc.defaultView!;
  win.addEventListener(SECTION_OUTCOME_EVENT, fill);
  return () => win.removeEventListener(SECTION_OUTCOME_EVENT, fill);
}
