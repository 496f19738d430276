import { useEffect, useState } from 'react';

/**
 * The console's screen, from the URL's fragment (`#/sections/contact`): the
 * server serves one page at `/`, and the fragment never reaches it.
 */
export function useHashRoute(): string {
  const read = () => window.location.hash.replace(/^#/, '') || '/';
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
