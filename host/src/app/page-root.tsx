import { PorticoProvider, type ConfigProblem, type Language, type SiteConfig, type TextPack } from '@portico/shared-config';
import { StrictMode } from 'react';
import type { SectionLoads } from '../remotes/load-section';
import { RemoteUrlsContext } from '../remotes/remote-urls-context';
import type { ResolvedRemotes } from '../remotes/resolve-remotes';
import { PageAddressContext } from '../shell/page-address-context';
import { App } from './app';

export interface PageStart {
  config: SiteConfig;
  problems: readonly ConfigProblem[];
  language: Language;
  text: TextPack;
  remotes: ResolvedRemotes;
  sections: SectionLoads;
}

export interface PageRootProps extends PageStart {
  /** The server render's path and query; the browser reads its own. */
  address?: string;
}

/**
 * The page's whole tree, the one the render worker renders and the browser
 * renders or hydrates: both must build the same tree for hydration to match.
 */
export function PageRoot({ config, problems, language, text, remotes, sections, address }: PageRootProps) {
  return (
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <PageAddressContext value={address}>
          <RemoteUrlsContext value={remotes}>
            <App sections={sections} />
          </RemoteUrlsContext>
        </PageAddressContext>
      </PorticoProvider>
    </StrictMode>
  );
}
