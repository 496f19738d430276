import { PorticoProvider } from '@portico/shared-config';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '../../host/src/app/app';
import type { PageStart } from '../../host/src/app/render-page';
import { RemoteUrlsContext } from '../../host/src/remotes/remote-urls-context';
import { logCaughtError } from '../../host/src/remotes/section-boundary';

/**
 * The whole page as one React root, the sections inside it: the islands the
 * host's bootstrap passes are not used, as a one-root app has none.
 */
function singlePage({ config, problems, language, text, remotes, sections }: PageStart) {
  return (
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <RemoteUrlsContext value={remotes}>
          <App sections={sections} />
        </RemoteUrlsContext>
      </PorticoProvider>
    </StrictMode>
  );
}

/**
 * Stands in for the host's `app/render-page.tsx` in the benchmark's
 * single-bundle SSR build. The host's bootstrap calls `hydratePage` when
 * the page carries the server's page data, as the single SSR server's page
 * does, and `renderPage` otherwise.
 */
export function renderPage(container: HTMLElement, start: PageStart): void {
  createRoot(container, { onCaughtError: logCaughtError }).render(singlePage(start));
}

/**
 * Hydrated as a standard server-rendered React app is: one `hydrateRoot` of
 * the whole tree (the federated page's shell hydrates as a transition and
 * each section as a root of its own; that is what the benchmark compares).
 */
export function hydratePage(container: HTMLElement, start: PageStart): void {
  hydrateRoot(container, singlePage(start), { onCaughtError: logCaughtError });
}
