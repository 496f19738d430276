import { PorticoProvider, type ConfigProblem, type Language, type SiteConfig, type TextPack } from '@portico/shared-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { SectionLoads } from '../remotes/load-section';
import type { ResolvedRemotes } from '../remotes/resolve-remotes';
import { RemoteUrlsContext } from '../remotes/remote-urls-context';
import { logCaughtError } from '../remotes/section-boundary';
import { App } from './app';

export interface PageStart {
  config: SiteConfig;
  problems: readonly ConfigProblem[];
  language: Language;
  text: TextPack;
  remotes: ResolvedRemotes;
  sections: SectionLoads;
}

/** React and the shell: a chunk of its own, fetched while config and sections load. */
export function renderPage(container: HTMLElement, { config, problems, language, text, remotes, sections }: PageStart): void {
  createRoot(container, { onCaughtError: logCaughtError }).render(
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <RemoteUrlsContext value={remotes}>
          <App sections={sections} />
        </RemoteUrlsContext>
      </PorticoProvider>
    </StrictMode>,
  );
}
