import { hydratesOn, type Hydration } from '@portico/contract/hydration';
import type { SectionId } from '@portico/contract/sections';
import { ISLAND_ATTRIBUTE, islandAround, islandContainerIn } from '../remotes/island-contract';

export interface IslandPlan {
  section: SectionId;
  hydration: Hydration;
  /** The server put the section's HTML in the page; otherwise the browser renders it (static or not) as soon as it can. */
  rendered: boolean;
}

export interface IslandTriggers {
  /** The shell selected a section (the page script's shell behaviour reports each selection). */
  selected(section: SectionId): void;
  stop(): void;
}

/** Events inside an island that count as the visitor starting to use it. */
const INTERACTIONS = ['focusin', 'pointerdown', 'input', 'keydown', 'submit'] as const;

/** Scrolled this near the viewport counts as visible: the code arrives before the visitor gets there. */
const VISIBLE_MARGIN = '200px';

/**
 * Asks for each island when its declaration says (`hydration.ts`), once:
 * a section the server did not render at once, whatever it declares; a
 * static one it rendered never; an interactive one on the first of its
 * triggers.
 */
export function watchIslands(doc: Document, plans: readonly IslandPlan[], request: (section: SectionId) => void): IslandTriggers {
  const win = doc.defaultView!;
  const asked = new Set<SectionId>();
  const cleanups: (() => void)[] = [];
  const ask = (section: SectionId) => {
    if (asked.has(section)) return;
    asked.add(section);
    request(section);
  };

  const waiting = plans.filter((plan) => plan.rendered && plan.hydration.mode === 'interactive');
  for (const plan of plans) if (!plan.rendered) ask(plan.section);
  for (const { section, hydration } of waiting) {
    if (hydratesOn(hydration, 'load')) ask(section);
    if (hydratesOn(hydration, 'idle')) {
      const idle = () => ask(section);
      if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(idle, { timeout: 5000 });
      else win.setTimeout(idle, 1000);
    }
    // The container and the island's root are `display: contents` (no box,
    // so never intersecting): what is watched is the section's own markup.
    const content = islandContainerIn(doc, section)?.querySelector(':scope > * > *');
    if (hydratesOn(hydration, 'visible') && content && typeof win.IntersectionObserver === 'function') {
      // A hidden panel (another tab selected) never intersects.
      const observer = new win.IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) ask(section);
        },
        { rootMargin: VISIBLE_MARGIN },
      );
      observer.observe(content);
      cleanups.push(() => observer.disconnect());
    }
  }

  // One listener per kind on the document, capturing: it sees the event
  // before anything inside the island could stop it.
  const interactive = waiting.filter(({ hydration }) => hydratesOn(hydration, 'interaction'));
  if (interactive.length > 0) {
    const onEvent = (event: Event) => {
      const island = event.target instanceof Element ? islandAround(event.target) : null;
      const section = island?.getAttribute(ISLAND_ATTRIBUTE);
      if (interactive.some((plan) => plan.section === section)) ask(section as SectionId);
    };
    for (const type of INTERACTIONS) doc.addEventListener(type, onEvent, true);
    cleanups.push(() => INTERACTIONS.forEach((type) => doc.removeEventListener(type, onEvent, true)));
  }

  return {
    selected(section) {
      const plan = waiting.find((candidate) => candidate.section === section);
      if (plan && hydratesOn(plan.hydration, 'selected')) ask(section);
    },
    stop() {
      cleanups.forEach((cleanup) => cleanup());
    },
  };
}
