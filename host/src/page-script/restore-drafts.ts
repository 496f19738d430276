// Putting back what a language switch kept (form-drafts.ts): in the page
// script's idle chunk, fetched after the first paint and only when there is
// something to put back, so the page carries none of it.
import { SECTION_OUTCOME_EVENT } from '../health/visit-outcomes';
import { DRAFTS_KEY, draftFields, type Field } from './form-drafts';

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
