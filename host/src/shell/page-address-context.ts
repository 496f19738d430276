import { createContext } from 'react';

/**
 * The page's path and query (no hash) as the server rendered them. Only the
 * render worker provides it; in the browser the address comes from
 * `window.location`, and a hydrating page starts from its path and query,
 * which are the server's.
 */
export const PageAddressContext = createContext<string | undefined>(undefined);
