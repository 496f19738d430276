import { languageFromSearch, searchWithLanguage } from '@portico/contract/languages';
import type { SectionId } from '@portico/contract/sections';
import { inShell } from '../remotes/island-contract';
import { STICKY_HEADER_PROPERTY } from '../shell/sticky-header';
import { trackFocusInput } from './focus-modality';
import { saveDrafts } from './form-drafts';

/** The attribute the page script sets on `<main>` once it keeps the panels' state: app.css then leaves `:target` to it. */
const ENHANCED_ATTRIBUTE = 'data-enhanced';

/**
 * The section the hash names among the page's (`ids`, in tab order), or the
 * first: a stale `#<id>` (a section hidden or retired since the link was
 * shared) or an unknown one lands on the first tab.
 */
function sectionFromHash(hash: string, ids: readonly SectionId[]): SectionId | undefined {
  const id = hash.replace(/^#/, '');
  return ids.find((one) => one === id) ?? ids[0];
}

export interface ShellBehaviourOptions {
  /** A section was selected (a tab, the hash, Back or Forward, or the page's first address). */
  onSelected?: (id: SectionId) => void;
  /** Where drafts go on a language switch; session storage in the page. */
  storage?: Storage;
}

const TAB = '.section-tabs [role="tab"]';
const LANGUAGE_LINK = '.language-switch a[href]';

/** How far inside the tab list's edge a revealed tab comes: clear of the edge's shade (app.css, "The tab list holds 8"). */
const TAB_EDGE_PX = 32;

/**
 * Scrolls the tab list sideways, and only it, until `tab` is wholly in view
 * and clear of the shade at the list's edge. Not `scrollIntoView`: that may
 * scroll the page too, and a tab at the list's edge would stay under the shade.
 */
function revealTab(tab: HTMLElement): void {
  const list = tab.parentElement;
  if (!list || list.scrollWidth <= list.clientWidth) return;
  const listBox = list.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  if (tabBox.left < listBox.left + TAB_EDGE_PX) list.scrollLeft -= listBox.left + TAB_EDGE_PX - tabBox.left;
  else if (tabBox.right > listBox.right - TAB_EDGE_PX) list.scrollLeft += tabBox.right - (listBox.right - TAB_EDGE_PX);
}

const isPlainClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * The shell's behaviour, on whatever rendered its markup (the server, or
 * React in a client-rendered page), with no React and no federation runtime,
 * for whichever sections the page's tabs name (any number, in their order):
 * - the tabs pattern with manual activation: arrow keys, Home and End move
 *   the focus, Enter, Space or a click selects; only the selected tab is a
 *   Tab stop; the tab lives in the URL hash, so a reload, Back or a shared
 *   link keep it;
 * - selecting shows the section, scrolls to the top and then smoothly to it
 *   (the specification's point 2);
 * - the skip link moves the focus to the section shown;
 * - the sticky header's height is published for `scroll-padding-top`, and a
 *   section the page opened at is brought clear of the header;
 * - the language links keep the section and what was typed: the page in the
 *   other language comes from the server (a static section has no code in
 *   the browser to re-render it), and the fields are filled in again;
 * - the panel's focus bar shows only when the keyboard moved the focus
 *   (focus-modality.ts).
 * Returns the clean-up (a client-rendered page's React unmounting in tests).
 */
export function startShellBehaviour(doc: Document, options: ShellBehaviourOptions = {}): () => void {
  const win = doc.defaultView!;
  // The shell's own elements only: a section's HTML may use the same classes and roles, and is never the shell.
  const shellAll = <E extends Element>(selector: string) => [...doc.querySelectorAll<E>(selector)].filter(inShell);
  const shellOne = <E extends Element>(selector: string) => shellAll<E>(selector)[0] ?? null;
  const shellAround = <E extends Element>(target: Element | null, selector: string) => {
    const found = target?.closest<E>(selector);
    return found && inShell(found) ? found : null;
  };
  const tabs = () => shellAll<HTMLAnchorElement>(TAB);
  // Its id is the shell's (no section's HTML may take it); a panel is never inside a section's markup either.
  const panelOf = (id: string) => {
    const panel = doc.getElementById(id);
    return panel && inShell(panel) ? panel : null;
  };
  const idOf = (tab: Element) => tab.getAttribute('aria-controls') as SectionId;
  // The page's sections are its tabs: the shell rendered one per section the page lists.
  const ids = () => tabs().map(idOf);

  const show = (active: SectionId | undefined) => {
    for (const tab of tabs()) {
      const selected = idOf(tab) === active;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      // A list too long for the row scrolls: the selected tab is brought into it, without moving the page.
      if (selected) revealTab(tab);
    }
    for (const id of ids()) {
      const panel = panelOf(id);
      if (panel?.getAttribute('role') === 'tabpanel') panel.hidden = id !== active;
    }
    if (active === undefined) return;
    shellOne('.site-main')?.setAttribute(ENHANCED_ATTRIBUTE, '');
    const skip = shellOne<HTMLAnchorElement>('.skip-link');
    if (skip) skip.setAttribute('href', `#${active}`);
    // The language links keep the section shown, and the address's whole
    // query: the server wrote only what changes the page (a campaign's tag
    // is not rendered into it), the visitor's address holds the rest.
    for (const link of shellAll<HTMLAnchorElement>(LANGUAGE_LINK)) {
      const url = new URL(link.href, win.location.href);
      url.search = searchWithLanguage(win.location.search, languageFromSearch(url.search));
      url.hash = win.location.hash;
      link.setAttribute('href', `${url.pathname}${url.search}${url.hash}`);
    }
    options.onSelected?.(active);
  };
  const current = () => sectionFromHash(win.location.hash, ids());

  const scrollTo = (id: SectionId) => {
    const reduceMotion = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    win.scrollTo({ top: 0 });
    panelOf(id)?.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  };

  const select = (id: SectionId | undefined) => {
    if (id === undefined) return;
    // pushState, not location.hash: the browser's own jump to the anchor
    // would skip the smooth scroll. The query (?type, overrides) is kept.
    if (current() !== id || win.location.hash === '') win.history.pushState(null, '', `#${id}`);
    show(id);
    scrollTo(id);
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const tab = shellAround<HTMLAnchorElement>(target, TAB);
    if (tab && isPlainClick(event)) {
      event.preventDefault();
      select(idOf(tab));
      return;
    }
    const skip = shellAround(target, '.skip-link');
    const shown = current();
    if (skip && shown !== undefined) {
      const panel = panelOf(shown);
      if (!panel) return;
      event.preventDefault();
      panel.focus({ preventScroll: true });
      // base.css's scroll-padding-top keeps the panel's top below the sticky header.
      panel.scrollIntoView({ block: 'start' });
      return;
    }
    const language = shellAround<HTMLAnchorElement>(target, LANGUAGE_LINK);
    if (language && isPlainClick(event)) {
      if (language.getAttribute('aria-current') === 'true') {
        event.preventDefault();
        return;
      }
      // The browser follows the link; what was typed waits for the next page.
      saveDrafts(doc, options.storage);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const tab = shellAround<HTMLAnchorElement>(event.target instanceof Element ? event.target : null, TAB);
    if (!tab) return;
    const all = tabs();
    const from = all.indexOf(tab);
    // A link follows Enter by itself (as a click), but not Space.
    if (event.key === ' ') {
      event.preventDefault();
      select(idOf(tab));
      return;
    }
    const to = { ArrowRight: from + 1, ArrowLeft: from - 1, Home: 0, End: all.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = all[(to + all.length) % all.length];
    if (!next) return;
    next.focus({ preventScroll: true });
    revealTab(next);
  };

  const onAddress = () => show(current());

  // The sticky header's real height: it depends on the language, the width
  // and the reader's text size, so no constant in CSS would fit them all.
  const header = shellOne<HTMLElement>('.site-header');
  const publish = () => {
    if (!header) return;
    const sticky = win.getComputedStyle(header).position === 'sticky';
    doc.documentElement.style.setProperty(STICKY_HEADER_PROPERTY, `${sticky ? Math.ceil(header.getBoundingClientRect().height) : 0}px`);
  };
  const resize = typeof win.ResizeObserver === 'function' ? new win.ResizeObserver(publish) : undefined;
  if (header) resize?.observe(header);
  publish();

  // A visit that opened at a section's address (a shared link, a language
  // switch) was scrolled there by the browser before the header was measured,
  // by base.css's guess. Where the header is taller than the guess (a long
  // company name, tab names on two lines) the section's heading is under it:
  // it is brought clear now that the padding is right. A reload or Back keeps
  // the reader's own place.
  const arrival = () => {
    const id = win.location.hash.replace(/^#/, '');
    const panel = ids().includes(id) ? panelOf(id) : null;
    const navigation = win.performance?.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (!panel || !header || navigation?.type === 'reload' || navigation?.type === 'back_forward') return;
    if (panel.getBoundingClientRect().top < header.getBoundingClientRect().bottom) panel.scrollIntoView({ block: 'start' });
  };

  const stopFocusInput = trackFocusInput(doc);
  doc.addEventListener('click', onClick);
  doc.addEventListener('keydown', onKeyDown);
  win.addEventListener('hashchange', onAddress);
  win.addEventListener('popstate', onAddress);
  win.addEventListener('resize', publish);
  show(current());
  arrival();

  return () => {
    stopFocusInput();
    doc.removeEventListener('click', onClick);
    doc.removeEventListener('keydown', onKeyDown);
    win.removeEventListener('hashchange', onAddress);
    win.removeEventListener('popstate', onAddress);
    win.removeEventListener('resize', publish);
    resize?.disconnect();
    doc.documentElement.style.removeProperty(STICKY_HEADER_PROPERTY);
  };
}
