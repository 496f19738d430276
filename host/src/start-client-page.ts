import { loadConfig } from '@portico/shared-config/config';
import { reportConfigToConsole } from '@portico/shared-config/config-warnings';
import { configUrlFor } from '@portico/contract/preview';
import { languageFromSearch } from '@portico/contract/languages';
import { applyTheme } from './app/apply-theme';
import { clientPageSections } from './app/client-page-sections';
import { yieldToMain } from './app/yield-to-main';
import { startVisitReport } from './health/visit-report';
import { loadTexts, type PageModule } from './page-start';
import { startSections } from './remotes/load-section';
import { loadSection } from './remotes/federation-runtime';
import { resolvePageRemotes } from './remotes/page-remotes';
import type { IslandStart } from './remotes/island-contract';
import type { SectionId } from '@portico/contract/sections';

/** The client-rendered page's islands: none is given a start, so each renders its section afresh (App's AFRESH). */
const CLIENT_ISLANDS: Partial<Record<SectionId, IslandStart>> = {};

/**
 * A page rendered in the browser (no server rendered it: nginx's static
 * page, `npm run dev`, a server whose shell failed): config.json is read and
 * validated here, so this module and the reader (zod) are a chunk of their
 * own that a server-rendered page never loads.
 */
export async function startClientPage(container: HTMLElement, page: Promise<PageModule>): Promise<void> {
  const language = languageFromSearch(window.location.search);
  // The page's staircase is short only if nothing waits needlessly: the
  // sections start loading as soon as config.json names them, while the
  // language pack and React (`page`, which index.ts requested already) arrive.
  // Each step its own task: this module's imports were just evaluated, and
  // checking the config, starting each section and hydrating each take tens
  // of milliseconds on a phone.
  const configRead = loadConfig(configUrlFor(window.location.search));
  const sectionsStarted = configRead.then(({ config, problems }) => {
    reportConfigToConsole(problems);
    applyTheme(config.theme);
    startVisitReport(config.health);
    const remotes = resolvePageRemotes(config, window.location.search);
    const pageSections = clientPageSections(config, language);
    // Each section's start (its manifest checked, its remote registered) in a task of its own.
    const ids = pageSections.map(({ id }) => id);
    const sections = startSections(config, remotes.remotes, (...load) => yieldToMain().then(() => loadSection(...load)), {}, ids);
    return { config, problems, remotes, sections, pageSections };
  });
  const [{ config, problems, remotes, sections, pageSections }, text] = await Promise.all([sectionsStarted, loadTexts(language)]);
  const { renderPage } = await page;
  await yieldToMain();
  renderPage(container, { config, problems, language, text, remotes, sections, islands: CLIENT_ISLANDS, pageSections });
  // An older version of the site may have left a service worker that would
  // pin stale remotes; removing it is off the critical path, in its own chunk.
  if ('serviceWorker' in navigator) {
    void import('@portico/toolkit/service-worker').then(({ unregisterServiceWorkers }) => unregisterServiceWorkers());
  }
}
