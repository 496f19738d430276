import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { logCaughtError } from '../remotes/section-boundary';
import { PageRoot, type PageStart } from './page-root';

export type { PageStart } from './page-root';

/** React and the shell: a chunk of its own, fetched while config and sections load. */
export function renderPage(container: HTMLElement, start: PageStart): void {
  createRoot(container, { onCaughtError: logCaughtError }).render(<PageRoot {...start} />);
}

/**
 * A section the server could not render (it threw there) hydrates as a
 * browser render of its boundary; React reports that as recoverable. It is
 * expected and the section loads as usual, so it is a warning, not an error.
 * A section the server left to the browser on purpose reports nothing.
 */
function logRecoverableError(error: unknown): void {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (digest === 'portico-server-render-failed') {
    console.warn('Portico: a section that failed on the server is rendered in the browser');
    return;
  }
  console.error(error);
}

/**
 * Makes the server-rendered page live: the same tree, so the HTML is kept as
 * it is. As a transition, React hydrates in slices of a few milliseconds and
 * yields to the browser between them (an urgent update, the default, would
 * hydrate the whole shell in one long task): the page is already painted, so
 * nothing is gained by blocking a tap or a scroll for it.
 */
export function hydratePage(container: HTMLElement, start: PageStart): void {
  startTransition(() => {
    hydrateRoot(container, <PageRoot {...start} />, { onCaughtError: logCaughtError, onRecoverableError: logRecoverableError });
  });
}
