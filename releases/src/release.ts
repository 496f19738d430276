import type { z } from 'zod';
import type { SectionEntry } from '@portico/contract/section-entries';
import type { SectionGrant, SectionId } from '@portico/contract/sections';
import {
  type auditEntrySchema,
  type checkResultSchema,
  type healthPointSchema,
  type RELEASE_STATES,
  type releaseHealthSchema,
  type releaseSchema,
  type scopeSchema,
  notRun,
} from '@portico/control-contract';

// The release contract: the shapes the control API answers (../docs/releases.md
// and the product brief's "Releases" table), the store keeps and the server
// serves. Those the API answers are its contract's schemas' types
// (control/control-contract.ts); the rest are the server's own.

export { CANARY_DEFAULTS } from '@portico/control-contract';

/** One check a publish ran, in words. */
export type CheckResult = z.infer<typeof checkResultSchema>;

// Beside the check's shape, so the console reads a refusal's checks with the same rule.
export { NOT_RUN, notRun } from '@portico/control-contract';

const checks = (count: number) => `${count} check${count === 1 ? '' : 's'}`;

/**
 * Why a publish was refused, counting the checks that failed apart from
 * those that did not run: "1 check failed, 7 not run: reachable".
 */
export function refusalSummary(results: readonly CheckResult[]): string {
  const failed = results.filter((check) => !check.ok && !notRun(check)).map((check) => check.name);
  const skipped = results.filter(notRun).map((check) => check.name);
  if (failed.length > 0) return `${checks(failed.length)} failed${skipped.length > 0 ? `, ${skipped.length} not run` : ''}: ${failed.join(', ')}`;
  if (skipped.length > 0) return `${checks(skipped.length)} not run: ${skipped.join(', ')}`;
  return 'the checks gave no manifest';
}

/**
 * What a canary of a section with no active release is judged against: the
 * URL the operator's config.json gives it, which the visits outside the
 * cohort run. Reported and counted under this name as a release's id (no
 * release id has a `.`: ids are `<section>-<n>`).
 */
export const CONFIG_BASELINE = 'config.json';

/** An immutable, checked build of one section. */
export type Release = z.infer<typeof releaseSchema>;

export type ReleaseState = (typeof RELEASE_STATES)[number];

export type Scope = z.infer<typeof scopeSchema>;

/** Who a token is: its name (the audit log's actor) and what it may do. */
export interface Actor {
  name: string;
  scopes: readonly Scope[];
}

/** An audit log's entry; its actions include the contact messages' reads, exports and deletions, from their own log (shown beside these to a messages token). */
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type AuditAction = AuditEntry['action'];

/** What every server serves: each section's active release, where it has one. */
export type ActiveReleases = Partial<Record<SectionId, Release>>;

/** What a publish's checks found: every check in words, and the manifest's facts when they all passed. */
export interface PublishCheckOutcome {
  ok: boolean;
  checks: CheckResult[];
  /** Set when the manifest URL's origin is not one of the section's release origins: nothing was fetched. */
  refusedOrigin?: string;
  /** With `refusedOrigin`: the section's release origins, which the refusal lists. */
  allowedOrigins?: string[];
  /** The pin computed from the manifest's exact bytes, and what the manifest says of itself (when ok). */
  manifest?: { integrity: string; version: string; buildId: string };
}

/** Runs every publish check on a section's build before anything is stored as releasable (`./checks`). */
/** `grant`: the section's grant as the store holds it (its built-in one when not given), which the build's declaration must stay within. */
/** `origins`: an added section's release origins (its entry's); without them, a built-in section's come from config.json. */
export type PublishChecks = (request: {
  section: SectionId;
  manifestUrl: string;
  grant?: SectionGrant;
  origins?: readonly string[];
}) => Promise<PublishCheckOutcome>;

/** A candidate served to a share of visits, and the thresholds that decide it (docs/releases.md, "Canaries"). */
export interface Canary {
  /** The canary's number, never reused: what its visit ids, its per-network counts and its signals are keyed by. */
  id: number;
  section: SectionId;
  release: Release;
  /** 1-99: the cohorts (buckets 0-99) below this get the candidate. */
  percent: number;
  minVisits: number;
  /** A fraction: 0.02 is 2 percentage points. */
  maxFailureDelta: number;
  /** A fraction: 0.25 is 25 % slower. */
  maxSlowdown: number;
  promoteAfterVisits: number | null;
  /** Distinct client networks a decision needs; 1 lifts the share bound and the leave-one-out (tests, one machine). */
  minNetworks: number;
  /** The largest share of the counts a decision rests on that one network may supply (a fraction). */
  maxNetworkShare: number;
  startedAt: string;
  startedBy: string;
}

/** A running canary as every server serves it: its candidate and share, and its number and start (what its visit ids name). */
export interface ServedCanary {
  release: Release;
  percent: number;
  id: number;
  startedAt: string;
}

/** What every server serves: the active releases, and the candidate and share of each section in a canary. */
export interface ServedState {
  active: ActiveReleases;
  /** The grants an integrator set in the store (section-grants.ts); a section not here has config.json's or its built-in one. */
  grants?: Partial<Record<SectionId, SectionGrant>>;
  canaries: Partial<Record<SectionId, ServedCanary>>;
  /**
   * The sections in tab order, retired ones left out (and their releases
   * with them), the built-in defaults filled in where no change set a value:
   * the catalogue (store/section-catalogue.ts). Each one's `interactive` is
   * the grant `grants` holds for it, or its built-in one. The store's
   * `served()` always sets it; absent (a state made without a store): the
   * built-in three as config.json says.
   */
  sections?: readonly SectionEntry[];
}

/** One release's health over a window (visits reported by pages that ran it). */
export type ReleaseHealth = z.infer<typeof releaseHealthSchema>;

/** The health of a release no page reported: a new object each time, as callers may fill it. */
export const noVisits = (): ReleaseHealth => ({ visits: 0, failures: 0, failureRate: 0, failuresByClass: {}, lcpP75: null, inpP75: null, clsP75: null });

/**
 * Each of `releaseIds`' health in `section` over the visits reported since
 * `since`, by release id (a release with no visits may be missing).
 */
export type HealthSource = (section: SectionId, releaseIds: readonly string[], since: Date) => Promise<Record<string, ReleaseHealth>>;

/** One hour of a release's health (the console's charts). */
export type HealthPoint = z.infer<typeof healthPointSchema>;
/** Each release's hours with visits since `since`, oldest first (HealthStore.series). */
export type HealthSeriesSource = (section: SectionId, releaseIds: readonly string[], since: Date) => Promise<Record<string, HealthPoint[]>>;
