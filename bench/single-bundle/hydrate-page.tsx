import { PorticoProvider } from '@portico/shared-config';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '../../host/src/app/app';
import type { PageStart } from '../../host/src/app/render-page';
import { RemoteUrlsContext } from '../../host/src/remotes/remote-urls-context';
import { logCaughtError } from '../../host/src/remotes/section-boundary';

/**
 * Stands in for the host's `app/render-page.tsx` in the benchmark's
 * single-bundle SSR build: the same tree, hydrated when the server drew it
 * (its `<main>` is in #root), rendered afresh otherwise.
 */
export function renderPage(container: HTMLElement, { config, problems, language, text, remotes, sections }: PageStart): void {
  const page = (
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <RemoteUrlsContext value={remotes}>
          <App sections={sections} />
        </RemoteUrlsContext>
      </PorticoProvider>
    </StrictMode>
  );
  if (container.querySelector('main')) {
    hydrateRoot(container, page, { onCaughtError: logCaughtError });
  } else {
    createRoot(container, { onCaughtError: logCaughtError }).render(page);
  }
}
