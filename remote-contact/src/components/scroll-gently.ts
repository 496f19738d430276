/**
 * Scrolls the page the least that brings `element` into view (its scroll
 * margins kept), smoothly unless the visitor asked for less motion.
 */
export function scrollGently(element: Element | null): void {
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element?.scrollIntoView?.({ block: 'nearest', behavior: reduceMotion ? 'auto' : 'smooth' });
}
