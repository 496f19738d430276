import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { logCaughtError } from '../remotes/section-boundary';
import { logRecoverableError } from '../remotes/section-island';
import { PageRoot, type PageStart } from './page-root';

export type { PageStart } from './page-root';

/** React and the shell: a chunk of its own, fetched while config and sections load. */
export function renderPage(container: HTMLElement, start: PageStart): void {
  createRoot(container, { onCaughtError: logCaughtError }).render(<PageRoot {...start} />);
}

/**
 * Makes the server-rendered page live: the same tree, so the HTML is kept as
 * it is. Each section is a root of its own (an island, see section-island.tsx)
 * that hydrates once the shell has. As a transition, React hydrates in slices
 * of a few milliseconds and yields to the browser between them (an urgent
 * update, the default, would hydrate the whole shell in one long task): the
 * page is already painted, so nothing is gained by blocking a tap or a
 * scroll for it.
 */
export function hydratePage(container: HTMLElement, start: PageStart): void {
  startTransition(() => {
    hydrateRoot(container, <PageRoot {...start} />, { onCaughtError: logCaughtError, onRecoverableError: logRecoverableError });
  });
}
