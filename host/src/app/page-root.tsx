import { PorticoProvider, type ConfigProblem, type SiteConfig, type TextPack } from '@portico/shared-config';
import { type SectionId } from '@portico/contract/sections';
import type { PageSection } from '@portico/contract/page-data';
import { type Language } from '@portico/contract/languages';
import { StrictMode } from 'react';
import type { SectionLoads } from '../remotes/load-section';
import type { IslandStart } from '../remotes/island-contract';
import { RemoteUrlsContext } from '../remotes/remote-urls-context';
import type { ResolvedRemotes } from '@portico/contract/override';
import { PageAddressContext } from '../shell/page-address-context';
import { PageSectionsContext } from '../shell/page-sections-context';
import { App } from './app';

export interface PageStart {
  config: SiteConfig;
  problems: readonly ConfigProblem[];
  language: Language;
  text: TextPack;
  remotes: ResolvedRemotes;
  sections: SectionLoads;
  /** How each section's island starts: the markup its container holds, and whether to hydrate it. */
  islands: Partial<Record<SectionId, IslandStart>>;
  /** The page's sections, in tab order, labelled in its language; the built-in ones when not given. */
  pageSections?: readonly PageSection[];
}

export interface PageRootProps extends PageStart {
  /** The server render's path and query; the browser reads its own. */
  address?: string;
}

/**
 * The shell's tree: the shell worker renders it for the server-rendered page
 * (whose shell the browser never hydrates: its page script gives it its
 * behaviour), and the browser renders it for the client-rendered page. Each
 * section is a root of its own inside it (SectionIsland).
 */
export function PageRoot({ config, problems, language, text, remotes, sections, islands, pageSections, address }: PageRootProps) {
  return (
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <PageAddressContext value={address}>
          <PageSectionsContext value={pageSections}>
            <RemoteUrlsContext value={remotes}>
              <App sections={sections} islands={islands} />
            </RemoteUrlsContext>
          </PageSectionsContext>
        </PageAddressContext>
      </PorticoProvider>
    </StrictMode>
  );
}
