import { DEFAULT_HYDRATION, ENABLED_BY_SCRIPT } from '@portico/contract/hydration';
import type { SiteConfig } from '@portico/shared-config/config';
import type { SectionId } from '@portico/contract/sections';
import { type PageData } from '@portico/contract/page-data';
import { readPageData } from '../app/read-page-data';
import { noteArrival } from '../health/visit-outcomes';
import { startVisitReport } from '../health/visit-report';
import {
  ISLAND_ATTRIBUTE,
  islandAround,
  islandContainerIn,
  ISLAND_HYDRATED_EVENT,
  ISLAND_REQUESTED_EVENT,
  ISLAND_STATE_ATTRIBUTE,
} from '../remotes/island-contract';
import { afterFirstPaint } from './after-first-paint';
import { DRAFTS_KEY } from './form-drafts';
import { watchIslands, type IslandPlan } from './island-triggers';
import { startShellBehaviour } from './shell-behaviour';

const isHydrated = (island: Element | null) => island?.getAttribute(ISLAND_STATE_ATTRIBUTE) === 'hydrated';

/** The islands' controls a section enables only for script (ENABLED_BY_SCRIPT): disabled as the server sends them. */
const scriptOnlyControls = (doc: Document) => doc.querySelectorAll<HTMLButtonElement>(`[${ISLAND_ATTRIBUTE}] [${ENABLED_BY_SCRIPT}]`);

interface HeldSubmits {
  stop(): void;
  /** The islands cannot hydrate (the host's code failed to load): held submits are made again, for the browser's own submission. */
  giveUp(): void;
  /** Submits are held again, and the controls only script enables enabled: after the first paint, and when the host's code is asked for again. */
  resume(): void;
}

/**
 * A submit in an island not yet hydrated (Enter in a field, or Send) never
 * reaches the browser's native submission, which would put the fields in
 * the address and clear them: it waits, and is made again once the island's
 * React has taken the form over (with what was typed, see the Contact
 * section's draft reading). If the host's code never comes, the form is
 * what it is without JavaScript (Contact's posts to the server, issue 49):
 * nothing is held any more, and what was held is sent that way, until the
 * visitor's Try again asks for that code once more.
 */
function holdSubmitsUntilHydrated(doc: Document): HeldSubmits {
  const held = new Map<HTMLFormElement, HTMLElement | null>();
  const hold = (event: Event) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    const island = form && islandAround(form);
    if (!form || !island || isHydrated(island)) return;
    event.preventDefault();
    const { submitter } = event as SubmitEvent;
    held.set(form, submitter);
    // The press is not lost: the button says so (its name unchanged) until the form's code is there to send.
    (submitter ?? form.querySelector('[type="submit"]'))?.setAttribute('aria-busy', 'true');
  };
  /** Takes the held submits of the forms `which` accepts off hold (their buttons no longer busy), each made again when `send` says. */
  const letGo = (which: (form: HTMLFormElement) => boolean, send: (again: () => void, form: HTMLFormElement) => void) => {
    for (const [form, submitter] of held) {
      if (!which(form)) continue;
      held.delete(form);
      for (const busy of form.querySelectorAll('[aria-busy]')) busy.removeAttribute('aria-busy');
      send(() => {
        if (form.isConnected) form.requestSubmit(submitter && form.contains(submitter) ? submitter : null);
      }, form);
    }
  };
  const release = (event: Event) => {
    const island = islandContainerIn(doc, (event as CustomEvent<SectionId>).detail);
    // The section's React owns the button from now on (it marks its own sends busy). Made again once the
    // current work is done: the section's state has then taken over what was typed (its layout effect's update
    // is rendered in the same task as the hydration). A microtask, not a timer: a page whose timers are held
    // (a paused clock) still sends.
    letGo((form) => island?.contains(form) === true, queueMicrotask);
  };
  const listen = () => {
    doc.addEventListener('submit', hold, true);
    doc.addEventListener(ISLAND_HYDRATED_EVENT, release);
  };
  listen();
  const stop = () => {
    doc.removeEventListener('submit', hold, true);
    doc.removeEventListener(ISLAND_HYDRATED_EVENT, release);
  };
  const giveUp = () => {
    stop();
    // A control the section enables only for script has no way without it: disabled again, as the server sent it.
    const scriptOnly = [...scriptOnlyControls(doc)];
    for (const control of scriptOnly) control.disabled = true;
    letGo(
      () => true,
      (again, form) => {
        if (!scriptOnly.some((control) => form.contains(control))) again();
      },
    );
  };
  const resume = () => {
    listen();
    // A control the section keeps disabled for a page without script (a native submit would lose the form): with submits held, enabled.
    for (const control of scriptOnlyControls(doc)) control.disabled = false;
  };
  return { stop, giveUp, resume };
}

/**
 * The islands of this page, as the server wrote them: what each declares,
 * and whether the server rendered it. A section it did not render (its
 * manifest unreachable or refused, its node build broken, an override) is
 * the browser's to render, or to show its failure, at once.
 */
function islandPlans(data: PageData): IslandPlan[] {
  return data.sections.map(({ id: section }) => ({
    section,
    hydration: data.hydration[section] ?? DEFAULT_HYDRATION,
    rendered: data.rendered.includes(section),
  }));
}

/**
 * The server-rendered page's script: the shell's behaviour at once, and the
 * host's script (the federation runtime, React, the sections' loader) only
 * when an island asks for it. A static section the server rendered never
 * brings any code; Contact's when the visitor is about to use it.
 * `hostScript` is the host's entry, which the server names on this script's
 * tag (`data-src`). What changes the page (the shell's state, the
 * enabled controls, the islands' observers) waits for the first paint
 * (`whenPainted`): the server's HTML and `:target` styles are right until
 * then, and work done before the paint would stand between the HTML and the
 * screen. Returns the clean-up (for tests: a page lives until unloaded).
 */
export function startPageScript(doc: Document, hostScript: string | null, whenPainted: (start: () => void) => void = afterFirstPaint): () => void {
  const data = readPageData(doc);
  const storage = (() => {
    try {
      return doc.defaultView?.sessionStorage;
    } catch {
      return undefined;
    }
  })();
  const holding = holdSubmitsUntilHydrated(doc);
  let stopped = false;
  let stopAlerts = () => {};

  let hostRequested = false;
  const plans = data ? islandPlans(data) : [];
  let idleWork: Promise<typeof import('./when-idle')> | undefined;
  const whenIdle = () => (idleWork ??= import('./when-idle'));
  // What the interactive islands will load, fetched ahead (warm-islands.ts): once, when the page is idle after its first paint, or with the first island asked for.
  let warmed = false;
  const warm = () => {
    if (warmed || !data || !hostScript) return;
    warmed = true;
    void whenIdle().then(({ warmIslands }) => warmIslands(doc, data, plans, hostScript, hostRequested ? hostScript : undefined));
  };
  const idle = () => {
    warm();
    void whenIdle().then(({ whenPageIdle }) => whenPageIdle(doc, data));
  };
  // Islands are asked for only by the triggers, which start after the first paint (below).
  const request = (section: SectionId) => {
    islandContainerIn(doc, section)?.setAttribute(ISLAND_STATE_ATTRIBUTE, 'requested');
    doc.dispatchEvent(new CustomEvent(ISLAND_REQUESTED_EVENT, { detail: section }));
    if (hostRequested || !hostScript) return;
    hostRequested = true;
    warm();
    loadEntry(hostScript);
  };
  // A fresh script element each time: the browser keeps no failed answer, so it fetches the same URL again (a
  // query would make the hashed file another file, past the caches and the fetch ahead).
  const loadEntry = (src: string) => {
    const script = doc.createElement('script');
    script.src = src;
    // A press is not left waiting on code that is not coming, and each island asked for shows the section's
    // alert (no React here: the page script's own, in a chunk fetched only then), whose Try again holds presses
    // again and asks for the entry once more. Should that chunk not arrive either, the form posts itself.
    script.addEventListener('error', () => {
      holding.giveUp();
      if (data)
        void import('./entry-failure').then(
          ({ showEntryFailure }) => {
            if (!stopped) stopAlerts = showEntryFailure(doc, data, holding, () => loadEntry(src));
          },
          () => undefined,
        );
    });
    doc.head.appendChild(script);
  };

  const config = data && typeof data.config === 'object' && data.config !== null ? (data.config as Partial<SiteConfig>) : undefined;
  // Before the arrivals below are told: the report collects from its start. It asks for its visit id after the first paint.
  startVisitReport(config?.health);
  // A static section the server rendered is final as it is: it never hydrates, so it arrived "static".
  for (const plan of plans) if (plan.rendered) noteArrival(plan.section, plan.hydration.mode === 'static' ? 'static' : 'ssr');
  let stop = () => {};
  let stopRestoring = () => {};
  whenPainted(() => {
    if (stopped) return;
    holding.resume();
    // What a language switch kept (form-drafts.ts), put back by the idle chunk, fetched now only when there is any:
    // the page carries none of that code, and a field filled a moment after the paint loses nothing.
    if (storage?.getItem(DRAFTS_KEY))
      void whenIdle().then(({ restoreDrafts }) => {
        if (!stopped) stopRestoring = restoreDrafts(doc, storage);
      });
    const triggers = watchIslands(doc, plans, request);
    const win = doc.defaultView;
    if (typeof win?.requestIdleCallback === 'function') win.requestIdleCallback(idle, { timeout: 3000 });
    else win?.setTimeout(idle, 1000);
    const stopShell = startShellBehaviour(doc, { onSelected: (section) => triggers.selected(section), storage });
    stop = () => {
      triggers.stop();
      stopShell();
    };
  });
  return () => {
    stopped = true;
    stopRestoring();
    holding.stop();
    stop();
    stopAlerts();
  };
}
