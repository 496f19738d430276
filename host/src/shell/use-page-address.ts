import { use, useSyncExternalStore } from 'react';
import { PageAddressContext } from './page-address-context';

function subscribeToHistory(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener('hashchange', onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener('hashchange', onChange);
  };
}

const addressWithHash = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/**
 * The page's address, `/path?query#hash`. The server never sees the hash, so
 * the server render and the hydrating first render leave it out (they must
 * agree), and the browser adds it right after. A `pushState` fires no event:
 * whoever pushes re-renders, and this reads the address afresh.
 */
export function usePageAddress(): string {
  const rendered = use(PageAddressContext);
  return useSyncExternalStore(subscribeToHistory, addressWithHash, () => rendered ?? `${window.location.pathname}${window.location.search}`);
}
