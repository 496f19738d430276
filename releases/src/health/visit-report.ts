import { ARRIVALS, FAILURE_CLASSES, VITAL_MAX, VITALS, type VisitReport, type Vital } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import { z } from 'zod';
import { JUDGED_VITALS } from '../canary/canary-counts';
import { bucketOf, vitalKey } from './vital-histogram';
import { isSection } from '../scopes';

/** The longest release id a report may name: ids are `<section>-<n>`, far shorter. */
export const REPORT_RELEASE_MAX = 100;
/** The longest report token accepted: a signed note of three releases and a cohort is about 150 characters. */
export const REPORT_TOKEN_MAX = 1024;
/** The longest visit id accepted: three releases, three canaries and the random part are about 250 characters. */
export const REPORT_VISIT_MAX = 1024;

// The one check of a visit report's shape, made from the contract's
// constants (@portico/contract/beacon), so page and server cannot drift.
// Unknown keys are refused: a report is small and fixed, and a body with
// more in it is not from our page.
const sectionReport = z
  .strictObject({
    release: z.string().min(1).max(REPORT_RELEASE_MAX),
    arrival: z.enum(ARRIVALS),
    failure: z.enum(FAILURE_CLASSES).optional(),
  })
  .refine((report) => report.failure === undefined || report.arrival === 'failed', {
    message: 'failure is given only with arrival "failed"',
    path: ['failure'],
  });

// z.number() refuses NaN and ±Infinity; the bounds are the contract's.
/** The body of a request for a visit id: the page's report token. */
const visitRequest = z.strictObject({ token: z.string().min(1).max(REPORT_TOKEN_MAX) });

/** A body's JSON as a request for a visit id, or what is wrong with it. */
export function parseVisitRequest(json: unknown): { ok: true; token: string } | { ok: false; error: string } {
  const result = visitRequest.safeParse(json);
  if (result.success) return { ok: true, token: result.data.token };
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  return { ok: false, error: field ? `${field}: ${issue.message}` : issue.message };
}

const vitals = z.strictObject(
  Object.fromEntries(VITALS.map((vital) => [vital, z.number().min(0).max(VITAL_MAX[vital]).optional()])) as Record<Vital, z.ZodOptional<z.ZodNumber>>,
);

const visitReport = z.strictObject({
  v: z.literal(2),
  visit: z.string().min(1).max(REPORT_VISIT_MAX),
  // Any section the grammar allows (sections are added at run time); the visit id's releases say which count.
  sections: z.record(z.string().refine(isSection, 'is not a section id'), sectionReport),
  vitals,
});

/** A body's JSON as a visit report, or what is wrong with it (the first problem, with its field). */
export function parseVisitReport(json: unknown): { ok: true; report: VisitReport } | { ok: false; error: string } {
  const result = visitReport.safeParse(json);
  if (result.success) return { ok: true, report: result.data as VisitReport };
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  return { ok: false, error: field ? `${field}: ${issue.message}` : issue.message };
}

/** One count a report adds: to which section's release, under which key. */
export interface ReportCount {
  section: SectionId;
  releaseId: string;
  key: string;
}

/**
 * What one visit adds to the health of each section's release it ran, for
 * the sections in `counted` only: a visit, its arrival, its failure class,
 * and a bucket of each vital it measured (the page's vitals count toward
 * every release on the page, which is what comparing two releases needs).
 */
export function reportCounts(report: VisitReport, counted: readonly SectionId[]): ReportCount[] {
  const counts: ReportCount[] = [];
  for (const section of counted) {
    const one = report.sections[section];
    if (!one) continue;
    const add = (key: string) => counts.push({ section, releaseId: one.release, key });
    add('visits');
    add(`arrival:${one.arrival}`);
    if (one.failure) add(`failed:${one.failure}`);
    for (const vital of VITALS) {
      const value = report.vitals[vital];
      if (value !== undefined) add(vitalKey(vital, bucketOf(vital, value)));
    }
  }
  return counts;
}

/**
 * The keys one visit adds to a canary's per-network counts for `section`:
 * a visit, a failure when the section failed, and the bucket of LCP and INP
 * (the vitals the judge compares). Nothing else is kept per network.
 */
export function judgedKeys(report: VisitReport, section: SectionId): string[] {
  const one = report.sections[section];
  if (!one) return [];
  const keys = ['visits'];
  if (one.arrival === 'failed') keys.push('failures');
  for (const vital of JUDGED_VITALS) {
    const value = report.vitals[vital];
    if (value !== undefined) keys.push(vitalKey(vital, bucketOf(vital, value)));
  }
  return keys;
}
