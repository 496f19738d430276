import type { SectionId } from './sections';

/**
 * The visit report (issue "Health from real visits"): what the page sends
 * once per page load with `navigator.sendBeacon`, and what the server's
 * beacon endpoint accepts. Plain data, so the page ships no schema library;
 * the server checks it with its own zod schema made from these constants.
 */
export const BEACON_PATH = '/api/beacon';

/**
 * The page's visit id comes with the page: a `Server-Timing` entry of this
 * name on the page's answer (its 200 or 304), the id its description
 * (`Server-Timing: visit;desc="..."`), which the page reads from its
 * navigation entry. Sent only where the page is a secure context (HTTPS,
 * or a loopback host), where browsers expose it.
 */
export const VISIT_TIMING = 'visit';

/**
 * Where the page asks for its visit id when it came without one (a page
 * from the HTTP cache, a plain-HTTP host): after its first paint, `POST`
 * with `{ token }` (its report token), answered `{ visit }`. The server
 * issues at most as many ids as it served pages of those releases, the
 * pages' own included.
 */
export const VISIT_PATH = '/api/visit';

/** The page's request for a visit id. */
export interface VisitRequest {
  token: string;
}

/** The server's answer: the single-use id the page's report carries. */
export interface VisitAnswer {
  visit: string;
}

/** A report is a few hundred bytes; anything over this is refused unread. */
export const BEACON_MAX_BYTES = 4096;

/**
 * How a section arrived on the page: rendered on the server (and hydrated,
 * or to be when its island is asked for), rendered on the server and never
 * hydrated because it declared itself static, rendered in the browser, or
 * not at all.
 */
export const ARRIVALS = ['ssr', 'static', 'csr', 'failed'] as const;
export type Arrival = (typeof ARRIVALS)[number];

/** Why a section failed, in the classes the page already knows. */
export const FAILURE_CLASSES = ['timeout', 'integrity', 'network', 'render', 'hydration'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** The Core Web Vitals reported, in web-vitals' units: milliseconds, CLS unitless. */
export const VITALS = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'] as const;
export type Vital = (typeof VITALS)[number];

/** Bounds a real value never reaches: a value past them is refused, not counted. */
export const VITAL_MAX: Record<Vital, number> = { lcp: 120_000, inp: 60_000, cls: 100, fcp: 120_000, ttfb: 120_000 };

export interface SectionReport {
  /** The release the page ran, as the server named it in the config it served. */
  release: string;
  arrival: Arrival;
  failure?: FailureClass;
}

export interface VisitReport {
  /** 2: the report carries a visit id (1 carried the page's token and a nonce of its own, and is refused). */
  v: 2;
  /**
   * The single-use id the server issued for this page load (VISIT_TIMING, or VISIT_PATH),
   * signed over the releases it served: a report counts only for those, and
   * only once on every server together.
   */
  visit: string;
  sections: Partial<Record<SectionId, SectionReport>>;
  vitals: Partial<Record<Vital, number>>;
}

/**
 * What the server puts in the config it serves (the `health` field) for the
 * page to report: the release of each section that has one, and the token
 * signed over them, which a page that came without its visit id trades for one (VISIT_PATH). The
 * token is the same for every page of those releases (pages stay cacheable):
 * it alone counts nothing.
 */
export interface HealthNote {
  releases: Partial<Record<SectionId, string>>;
  token: string;
}
