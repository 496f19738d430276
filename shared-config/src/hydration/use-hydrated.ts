import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the page is rendered on the server and while the browser
 * hydrates that HTML; true once the browser's React owns the component, and
 * at once in a client-only render (React re-renders with `true` right after
 * hydrating). A section renders what needs its code only when this is
 * true, so its server HTML reads without JavaScript and hydrates without a
 * mismatch (a control that must not act without script can stay disabled
 * until then; the Contact form needs none since it posts itself to the
 * server without script, issue 49).
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
