import { createRoot } from 'react-dom/client';
import { logCaughtError } from '../remotes/section-boundary';
import { PageRoot, type PageStart } from './page-root';

export type { PageStart } from './page-root';
// The islands of a server-rendered page come with React, in this chunk.
export { startIsland } from '../remotes/section-island';

/** React and the shell: a chunk of its own, fetched while config and sections load. */
export function renderPage(container: HTMLElement, start: PageStart): void {
  createRoot(container, { onCaughtError: logCaughtError }).render(<PageRoot {...start} />);
}
