import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the page is rendered on the server and while the browser
 * hydrates that HTML; true once the browser's React owns the component, and
 * at once in a client-only render (React re-renders with `true` right after
 * hydrating). The host's shell applies its scripted state (hidden panels,
 * the roving tab stop, the tab read from the hash) only when this is true,
 * so the server's HTML reads without JavaScript and hydrates without a
 * mismatch; the Contact form keeps its fields read-only and Send disabled
 * until then, since a click would otherwise submit the form natively and
 * lose what was typed.
 *
 * A subpath of its own, compiled into each app that imports it: it holds no
 * state, so it needs no single instance, and the shared singleton stays as
 * small as its rule in docs/decisions.md asks.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
