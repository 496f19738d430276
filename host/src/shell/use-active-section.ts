import { SECTION_IDS, type SectionId } from '@portico/shared-config';
import { useCallback, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useHydrated } from './use-hydrated';

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
  const hydrated = useHydrated();
  // Nothing chosen yet: the hash decides, which only the browser can read.
  // The server (and hydration, which must match it) says Home; React
  // re-renders with the hash as soon as the page is hydrated.
  const [chosen, setActive] = useState<SectionId | undefined>(undefined);
  const active = chosen ?? (hydrated ? sectionFromHash(window.location.hash) : 'home');

  useEffect(() => {
    const follow = () => setActive(sectionFromHash(window.location.hash));
    window.addEventListener('popstate', follow);
    window.addEventListener('hashchange', follow);
    return () => {
      window.removeEventListener('popstate', follow);
      window.removeEventListener('hashchange', follow);
    };
  }, []);

  const select = useCallback((id: SectionId) => {
    // pushState, not location.hash: the browser's own jump to the anchor
    // would skip the smooth scroll. The query (?type, overrides) is kept.
    if (sectionFromHash(window.location.hash) !== id || window.location.hash === '') {
      window.history.pushState(null, '', `#${id}`);
    }
    // The section must be visible before it can be scrolled to.
    flushSync(() => setActive(id));
    scrollToSection(id);
  }, []);

  return [active, select];
}
