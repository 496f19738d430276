import { loadPack } from '@portico/shared-config';
import { parseConfig } from '@portico/shared-config/config';
import { resolveRemotes } from '@portico/contract/override';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { IslandStart } from '../../host/src/remotes/island-contract';
import { readPageData } from '../../host/src/app/read-page-data';
import { startSections } from './load-section';

type PageModule = typeof import('./hydrate-page');

/**
 * Stands in for the host's `bootstrap.ts` in the single-bundle SSR build: a
 * one-root app has no islands, so it hydrates the whole server-rendered page
 * at once (the standard server-rendered React app), from the page data the
 * server wrote, with every section already in its bundle.
 */
export function startPage(page: Promise<PageModule>): void {
  const container = document.getElementById('root')!;
  const pageData = readPageData(document);
  if (!pageData) throw new Error('the single-bundle SSR page carries no page data');
  const { config, problems } = parseConfig(pageData.config);
  void Promise.all([loadPack(pageData.language), page]).then(([text, { hydratePage }]) =>
    hydratePage(container, {
      config,
      problems,
      language: pageData.language,
      text,
      remotes: resolveRemotes(config.remotes, config.allowedRemoteOrigins, ''),
      sections: startSections(),
      // Unused: one root, the sections inside it (hydrate-page.tsx).
      islands: Object.fromEntries(SECTION_IDS.map((id) => [id, { html: '', hydrate: true }])) as Record<SectionId, IslandStart>,
    }),
  );
}
