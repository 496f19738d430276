import {
  BEACON_PATH,
  VISIT_PATH,
  VISIT_TIMING,
  VITALS,
  type HealthNote,
  type Vital,
  type VisitAnswer,
  type VisitReport,
  type VisitRequest,
} from '@portico/contract/beacon';
import { afterFirstPaint } from '../page-script/after-first-paint';
import { REMOTE_ERROR_EVENT } from '../remotes/report-failure';
import { collectOutcomes, failureClassOf, noteFailure } from './visit-outcomes';

/** What the page needs of the browser to report; the real one in the page, a fake in unit tests. */
export interface ReportSeams {
  sendBeacon: ((url: string, body: string) => boolean) | undefined;
  /** Starts measuring the Core Web Vitals; each value as it changes. */
  measureVitals: (keep: (name: Vital, value: number) => void) => void;
  /** The visit id the page came with (its VISIT_TIMING entry); undefined when it came without one, or from the HTTP cache. */
  visitWithPage: () => string | undefined;
  /** Trades the page's report token for this visit's id (a same-origin POST); undefined when none is given. */
  requestVisit: (token: string) => Promise<string | undefined>;
  /** Runs `start` once the page has painted (afterFirstPaint): asking for the id never delays the page. */
  whenPainted: (start: () => void) => void;
}

/**
 * The visit id on the page's navigation entry, when the page came from the
 * server just now: a page the browser took from its cache without asking
 * (a history navigation; transferSize 0) holds the id of the load that
 * fetched it, reported already.
 */
function visitWithPage(): string | undefined {
  const [navigation] = (typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('navigation') : []) as PerformanceNavigationTiming[];
  if (!navigation || !(navigation.transferSize > 0)) return undefined;
  const visit = navigation.serverTiming?.find((entry) => entry.name === VISIT_TIMING)?.description;
  return visit ? visit : undefined;
}

/** POST /api/visit on the page's own origin: the id, or undefined on any refusal or failure (the page then reports nothing). */
async function requestVisit(token: string): Promise<string | undefined> {
  try {
    const body: VisitRequest = { token };
    const response = await fetch(VISIT_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (!response.ok) return undefined;
    const answer = (await response.json()) as Partial<VisitAnswer> | null;
    return typeof answer?.visit === 'string' ? answer.visit : undefined;
  } catch {
    return undefined;
  }
}

const browserSeams = (): ReportSeams => ({
  visitWithPage,
  requestVisit,
  whenPainted: afterFirstPaint,
  sendBeacon: typeof navigator.sendBeacon === 'function' ? (url, body) => navigator.sendBeacon(url, body) : undefined,
  measureVitals: (keep) => {
    // Google's library, in a chunk of its own, once the page has loaded and
    // the main thread is idle: the report never delays the page. Its
    // observers are buffered, so what happened before is still seen.
    const start = () =>
      void import(/* webpackChunkName: "web-vitals" */ 'web-vitals').then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
        const options = { reportAllChanges: true };
        onLCP((metric) => keep('lcp', metric.value), options);
        onINP((metric) => keep('inp', metric.value), options);
        onCLS((metric) => keep('cls', metric.value), options);
        onFCP((metric) => keep('fcp', metric.value), options);
        onTTFB((metric) => keep('ttfb', metric.value), options);
      });
    const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(start, { timeout: 5000 }) : setTimeout(start, 0));
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  },
});

/**
 * The visit report: once per page load, when the page is hidden (or
 * unloaded), one `navigator.sendBeacon` to the page's own origin with how
 * each released section arrived and the visit's Core Web Vitals. The report
 * carries the visit id the server issued for this page load, which it
 * counts once: the page came with it (VISIT_TIMING), or, without one, the
 * page trades its report token for one after its first paint. Without an
 * id (refused, not back yet) nothing is sent. It
 * names this page load only, never the visitor. Without the server's note
 * (no releases, a preview visit) or without sendBeacon, nothing is
 * measured, asked for or sent.
 */
export function startVisitReport(given: Partial<HealthNote> | undefined, seams: ReportSeams = browserSeams()): void {
  const send = seams.sendBeacon;
  // parseConfig keeps `health` whole or not at all; the type allows parts.
  const note =
    typeof given?.releases === 'object' && given.releases !== null && typeof given.token === 'string'
      ? { releases: given.releases, token: given.token }
      : undefined;
  if (!note || !send || Object.keys(note.releases).length === 0) return;
  let visit = seams.visitWithPage();
  // Asking costs a request while the page paints: only a page that came without its id asks.
  if (visit === undefined)
    seams.whenPainted(() => {
      void seams.requestVisit(note.token).then((id) => (visit = id));
    });
  const vitals: VisitReport['vitals'] = {};
  seams.measureVitals((name, value) => {
    if ((VITALS as readonly string[]).includes(name) && Number.isFinite(value))
      vitals[name] = Math.round(name === 'cls' ? value * 1000 : value) / (name === 'cls' ? 1000 : 1);
  });
  const outcomes = collectOutcomes();
  window.addEventListener(REMOTE_ERROR_EVENT, (event) => noteFailure(event.detail.section, failureClassOf(event.detail)));

  let sent = false;
  const report = () => {
    // Once per page load: a tab hidden then closed, or restored from the back/forward cache, sends nothing more.
    if (sent || visit === undefined) return;
    sent = true;
    const sections: VisitReport['sections'] = {};
    // Each section the server named a release of: any section, built in or added.
    for (const [id, release] of Object.entries(note.releases)) {
      const outcome = outcomes.get(id);
      // Still loading when the page was left: nothing to say about it.
      if (release && outcome) sections[id] = { release, ...outcome };
    }
    const body: VisitReport = { v: 2, visit, sections, vitals };
    send(BEACON_PATH, JSON.stringify(body));
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') report();
  });
  window.addEventListener('pagehide', report);
}
