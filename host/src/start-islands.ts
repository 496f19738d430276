import type { SiteConfig } from '@portico/shared-config';
import type { SectionId } from '@portico/contract/sections';
import type { PageData } from '@portico/contract/page-data';
import { yieldToMain } from './app/yield-to-main';
import { loadTexts } from './page-start';
import { startSection, type SectionLoader } from './remotes/load-section';
import { pageRemotes } from './remotes/page-remotes';
import { islandContainerIn, ISLAND_HYDRATED_EVENT, ISLAND_REQUESTED_EVENT, ISLAND_STATE_ATTRIBUTE } from './remotes/island-contract';
import type { startIsland } from './remotes/section-island';
import { SECTION_OUTCOME_EVENT } from './health/visit-outcomes';

/** What starts an island's React root (in render-page's chunk, or the islands' entry itself). */
export interface IslandModule {
  startIsland: typeof startIsland;
}

const islandContainer = (section: SectionId) => islandContainerIn(document, section);

/**
 * A server-rendered page: its shell is never hydrated (the page script
 * gives it its behaviour) and this script was loaded because an island asked
 * for it. Each island the page script requests, now or later, is started
 * alone: its section loaded from the manifest the server inlined, then its
 * HTML hydrated (or the section rendered, when the server could not).
 */
export async function startIslands(pageData: PageData, page: Promise<IslandModule>, loadSection: SectionLoader): Promise<void> {
  // config.json as the server's parseConfig left it (its valid fields, this
  // market's), written by the server that sent this page: the browser
  // carries no parser for it (issue 50). The page script has told the
  // console what config.json has wrong, and which overrides were refused.
  const config = pageData.config as SiteConfig;
  const { problems } = pageData;
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
