import { SECTION_IDS, type SectionId } from './sections';

/**
 * The visit report (issue "Health from real visits"): what the page sends
 * once per page load with `navigator.sendBeacon`, and what the server's
 * beacon endpoint accepts. Plain data, so the page ships no schema library;
 * the server checks it with its own zod schema made from these constants.
 */
export const BEACON_PATH = '/api/beacon';

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
  v: 1;
  /** The server's signature over the releases (and cohort) it served this page: a report counts only for those. */
  token: string;
  /** Random per page load, held in memory only: the same report sent twice (hidden, then pagehide) counts once. */
  nonce: string;
  sections: Partial<Record<SectionId, SectionReport>>;
  vitals: Partial<Record<Vital, number>>;
}

/**
 * What the server puts in the config it serves (the `health` field) for the
 * page to report: the release of each section that has one, and the token
 * signed over them.
 */
export interface HealthNote {
  releases: Partial<Record<SectionId, string>>;
  token: string;
}

export const isSectionId = (value: unknown): value is SectionId => typeof value === 'string' && (SECTION_IDS as readonly string[]).includes(value);
