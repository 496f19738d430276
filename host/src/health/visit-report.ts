import { BEACON_PATH, VITALS, type HealthNote, type Vital, type VisitReport } from '@portico/contract/beacon';
import { SECTION_IDS } from '@portico/contract/sections';
import { REMOTE_ERROR_EVENT } from '../remotes/report-failure';
import { collectOutcomes, failureClassOf, noteFailure } from './visit-outcomes';

/** What the page needs of the browser to report; the real one in the page, a fake in unit tests. */
export interface ReportSeams {
  sendBeacon: ((url: string, body: string) => boolean) | undefined;
  /** Starts measuring the Core Web Vitals; each value as it changes. */
  measureVitals: (keep: (name: Vital, value: number) => void) => void;
}

const browserSeams = (): ReportSeams => ({
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

/** 16 random bytes as hex: `crypto.getRandomValues` works on a plain-http page too, where `randomUUID` does not. */
function pageLoadNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The visit report: once per page load, when the page is hidden (or
 * unloaded), one `navigator.sendBeacon` to the page's own origin with how
 * each released section arrived and the visit's Core Web Vitals. No
 * identifier: the nonce is random per page load and only lets the server
 * count a report sent twice once. Without the server's note (no releases,
 * a preview visit) or without sendBeacon, nothing is measured or sent.
 */
export function startVisitReport(given: Partial<HealthNote> | undefined, seams: ReportSeams = browserSeams()): void {
  const send = seams.sendBeacon;
  // parseConfig keeps `health` whole or not at all; the type allows parts.
  const note = typeof given?.releases === 'object' && given.releases !== null && typeof given.token === 'string' ? { releases: given.releases, token: given.token } : undefined;
  if (!note || !send || Object.keys(note.releases).length === 0) return;
  const nonce = pageLoadNonce();
  const vitals: VisitReport['vitals'] = {};
  seams.measureVitals((name, value) => {
    if ((VITALS as readonly string[]).includes(name) && Number.isFinite(value)) vitals[name] = Math.round(name === 'cls' ? value * 1000 : value) / (name === 'cls' ? 1000 : 1);
  });
  const outcomes = collectOutcomes();
  window.addEventListener(REMOTE_ERROR_EVENT, (event) => noteFailure(event.detail.section, failureClassOf(event.detail)));

  let sent = false;
  const report = () => {
    // Once per page load: a tab hidden then closed, or restored from the back/forward cache, sends nothing more.
    if (sent) return;
    sent = true;
    const sections: VisitReport['sections'] = {};
    for (const id of SECTION_IDS) {
      const release = note.releases[id];
      const outcome = outcomes.get(id);
      // Still loading when the page was left: nothing to say about it.
      if (release && outcome) sections[id] = { release, ...outcome };
    }
    const body: VisitReport = { v: 1, token: note.token, nonce, sections, vitals };
    send(BEACON_PATH, JSON.stringify(body));
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') report();
  });
  window.addEventListener('pagehide', report);
}
