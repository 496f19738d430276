import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the page is rendered on the server and during hydration of
 * that HTML; true once the browser's React owns the page, and at once in a
 * client-only render. The shell applies its scripted state (hidden panels,
 * the roving tab stop, the tab read from the hash) only when this is true,
 * so the server's HTML reads without JavaScript and hydrates without a
 * mismatch: React re-renders with `true` right after hydrating.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
