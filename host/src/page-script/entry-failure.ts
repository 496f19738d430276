// The page script's alert when the host's entry fails to load: a chunk of
// its own, fetched from the page's origin only then, so the page carries
// neither its code nor its texts (the page must fit TCP's first window).
import type { PageData } from '@portico/contract/page-data';
import { fill, SECTION_TEXTS } from '@portico/shared-config/section-texts';
import { ISLAND_ATTRIBUTE, ISLAND_REQUESTED_EVENT, ISLAND_STATE_ATTRIBUTE, islandContainers } from '../remotes/island-contract';

/** An element of `tag` with `className` and `text`, as plain text. */
function element(doc: Document, tag: string, className: string, text: string): HTMLElement {
  const made = doc.createElement(tag);
  made.className = className;
  made.textContent = text;
  return made;
}

/**
 * The host's entry failed to load: each island asked for shows the alert a
 * section shows when its own code fails (`SectionAlert`: the same markup,
 * classes and texts, in the page's language, its reason the entry's), at
 * the top of its container, and so does each island asked for after. The
 * server's HTML stays below it, readable, and a form that posts without
 * script still does. Try again takes every alert away, holds presses again
 * (`holding`) and calls `load`, which asks for the entry once more; a new
 * failure calls this again. Returns the clean-up (for tests: a page lives
 * until unloaded).
 */
export function showEntryFailure(doc: Document, data: PageData, holding: { resume(): void }, load: () => void): () => void {
  const text = SECTION_TEXTS[data.language];
  const shown = new Map<Element, Element>();
  const stop = () => {
    doc.removeEventListener(ISLAND_REQUESTED_EVENT, show);
    // Gone before the entry is asked for: a section that then starts shows no stale alert above it.
    for (const alert of shown.values()) alert.remove();
  };
  const tryAgain = () => {
    stop();
    holding.resume();
    load();
  };
  function show() {
    for (const container of islandContainers(doc)) {
      if (container.getAttribute(ISLAND_STATE_ATTRIBUTE) !== 'requested' || shown.has(container)) continue;
      const section = container.getAttribute(ISLAND_ATTRIBUTE);
      const label = data.sections.find(({ id }) => id === section)?.label ?? section ?? '';
      const alert = element(doc, 'div', 'section-error', '');
      alert.setAttribute('role', 'alert');
      const again = element(doc, 'button', 'button', text.tryAgain);
      again.setAttribute('type', 'button');
      again.addEventListener('click', tryAgain);
      alert.append(
        element(doc, 'p', 'section-error__message', fill(text.failed, { section: label })),
        element(doc, 'p', 'section-error__reason', text.reasons.entry),
        again,
      );
      container.prepend(alert);
      shown.set(container, alert);
    }
  }
  doc.addEventListener(ISLAND_REQUESTED_EVENT, show);
  show();
  return stop;
}
