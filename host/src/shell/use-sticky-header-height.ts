import { useLayoutEffect, type RefObject } from 'react';

/** The custom property base.css's `scroll-padding-top` reads. */
export const STICKY_HEADER_PROPERTY = '--sticky-header-height';

/**
 * Publishes the sticky header's real height, so that focus moved by Tab,
 * Shift+Tab or the skip link is scrolled clear of the header. The height
 * depends on the language (Indonesian tab names wrap on phones), the width
 * and the reader's text size, so no constant in CSS would fit them all.
 * Where CSS makes the header static (short viewports), nothing needs clearing.
 */
export function useStickyHeaderHeight(header: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = header.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const publish = () => {
      const sticky = getComputedStyle(element).position === 'sticky';
      root.style.setProperty(STICKY_HEADER_PROPERTY, `${sticky ? Math.ceil(element.getBoundingClientRect().height) : 0}px`);
    };
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    // A media query can switch the header between sticky and static without resizing it.
    window.addEventListener('resize', publish);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', publish);
      root.style.removeProperty(STICKY_HEADER_PROPERTY);
    };
  }, [header]);
}
