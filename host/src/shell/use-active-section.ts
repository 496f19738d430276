import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { useCallback, useReducer } from 'react';
import { flushSync } from 'react-dom';
import { usePageAddress } from './use-page-address';

export function sectionFromHash(hash: string): SectionId {
  const id = hash.replace(/^#/, '');
  return (SECTION_IDS as readonly string[]).includes(id) ? (id as SectionId) : 'home';
}

function scrollToSection(id: SectionId): void {
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  window.scrollTo({ top: 0 });
  document.getElementById(id)?.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
}

/**
 * The active tab lives in the URL hash, so a reload or Back keeps it.
 * Selecting a tab shows its section, then scrolls the page to the top and
 * smoothly to the section's anchor (the specification's point 2).
 */
export function useActiveSection(): [SectionId, (id: SectionId) => void] {
  // Follows Back, Forward and hash links; a server-rendered page hydrates
  // with Home (the server has no hash) and shows the hash's section next.
  const address = usePageAddress();
  const active = sectionFromHash(address.includes('#') ? address.slice(address.indexOf('#')) : '');
  const [, rerender] = useReducer((count: number) => count + 1, 0);

  const select = useCallback((id: SectionId) => {
    // pushState, not location.hash: the browser's own jump to the anchor
    // would skip the smooth scroll. The query (?type, overrides) is kept.
    if (sectionFromHash(window.location.hash) !== id || window.location.hash === '') {
      window.history.pushState(null, '', `#${id}`);
    }
    // The section must be visible before it can be scrolled to; pushState
    // fires no event, so the address is read again by a render of our own.
    flushSync(rerender);
    scrollToSection(id);
  }, []);

  return [active, select];
}
