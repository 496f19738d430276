import { loadConfig, loadPack, parseConfig, type TextPack } from '@portico/shared-config';
import { clientPageSections } from './app/client-page-sections';
import { reportConfigToConsole } from '@portico/shared-config/config-warnings';
import type { SectionId } from '@portico/contract/sections';
import { languageFromSearch, type Language } from '@portico/contract/languages';
import { configUrlFor } from '@portico/contract/preview';
import { applyTheme } from './app/apply-theme';
import { startVisitReport } from './health/visit-report';
import { readPageData } from './app/read-page-data';
import { yieldToMain } from './app/yield-to-main';
import { loadSection, startSection, startSections } from './remotes/load-section';
import { pageRemotes, resolvePageRemotes } from './remotes/page-remotes';
import { islandContainerIn, ISLAND_HYDRATED_EVENT, ISLAND_REQUESTED_EVENT, ISLAND_STATE_ATTRIBUTE, type IslandStart } from './remotes/island-contract';
import { SECTION_OUTCOME_EVENT } from './health/visit-outcomes';
import type { PageData } from '@portico/contract/page-data';

/** The visitor's pack; a chunk lost on a flaky network is fetched once more. */
function loadTexts(language: Language): Promise<TextPack> {
  return loadPack(language).catch(() => loadPack(language));
}

type PageModule = typeof import('./app/render-page');

/** The client-rendered page's islands: none is given a start, so each renders its section afresh (App's AFRESH). */
const CLIENT_ISLANDS: Partial<Record<SectionId, IslandStart>> = {};

const islandContainer = (section: SectionId) => islandContainerIn(document, section);

/**
 * A server-rendered page: its shell is never hydrated (the page script
 * gives it its behaviour) and this script was loaded because an island asked
 * for it. Each island the page script requests, now or later, is started
 * alone: its section loaded from the manifest the server inlined, then its
 * HTML hydrated (or the section rendered, when the server could not).
 */
async function startIslands(pageData: PageData, page: Promise<PageModule>): Promise<void> {
  // The page script has told the console what config.json has wrong, and which overrides were refused.
  const { config, problems } = parseConfig(pageData.config);
  const remotes = pageRemotes(config, window.location.search);
  const started = new Set<SectionId>();
  // Each section starts loading as soon as it is asked for, while the texts and React arrive.
  const loads = new Map<SectionId, ReturnType<typeof startSection>>();
  const load = (section: SectionId) => {
    if (!loads.has(section)) loads.set(section, startSection(section, config, remotes.remotes, loadSection, pageData.manifests));
    return loads.get(section)!;
  };
  const requested = () =>
    pageData.sections
      .map(({ id }) => id)
      .filter((section) => islandContainer(section)?.getAttribute(ISLAND_STATE_ATTRIBUTE) === 'requested' && !started.has(section));
  requested().forEach(load);
  // An island is hydrated once its section has arrived in it: the page script then makes a held submit again.
  window.addEventListener(SECTION_OUTCOME_EVENT, ({ detail }) => {
    const container = islandContainer(detail.section);
    if (detail.arrival === 'failed' || !container || !started.has(detail.section)) return;
    container.setAttribute(ISLAND_STATE_ATTRIBUTE, 'hydrated');
    document.dispatchEvent(new CustomEvent(ISLAND_HYDRATED_EVENT, { detail: detail.section }));
  });

  const [text, { startIsland }] = await Promise.all([loadTexts(pageData.language), page]);
  const portico = {
    config,
    problems,
    language: pageData.language,
    text,
    // The language is switched by a navigation (the language links); an island never switches it.
    switchLanguage: () => Promise.resolve(false),
  };
  const startOne = (section: SectionId) => {
    const container = islandContainer(section);
    const listed = pageData.sections.find(({ id }) => id === section);
    // Only a section of this page's list: a request naming another starts nothing.
    if (started.has(section) || !container || !listed) return;
    started.add(section);
    startIsland(container, { portico, remotes, section, label: listed.label, load: load(section), hydrate: pageData.rendered.includes(section) });
  };
  document.addEventListener(ISLAND_REQUESTED_EVENT, (event) => startOne((event as CustomEvent<SectionId>).detail));
  for (const section of requested()) {
    await yieldToMain();
    startOne(section);
  }
}

async function start(page: Promise<PageModule>): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  // A server-rendered page carries config.json, the language and the
  // manifests it was rendered from: its islands start from the same ones.
  const pageData = readPageData(document);
  if (pageData) return startIslands(pageData, page);
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

/**
 * Starts the page with React and the shell (`render-page`), whose chunk
 * index.ts requested beside this one: one request, one chunk, where an
 * import of its own here would make webpack split the module into a second
 * chunk and fetch it twice.
 */
export function startPage(page: Promise<PageModule>): void {
  void start(page).catch((error: unknown) => {
    // Without its texts the page has no language to speak, so it says both.
    console.error('Portico: the page could not start', error);
    const container = document.getElementById('root');
    // A server-rendered page stays readable as it is; the client-rendered one would be blank.
    if (container && !readPageData(document)) {
      container.textContent = 'This page could not load. Please reload it. / Halaman ini gagal dimuat. Silakan muat ulang.';
    }
  });
}
