import type { Canary, ReleaseHealth } from '../release';

/** Both releases' health over the same window: since the canary started. */
export interface CanaryHealth {
  active: ReleaseHealth;
  candidate: ReleaseHealth;
}

/** What the judge does with a canary, why in a sentence, and for an ending the numbers that decided it. */
export type CanaryDecision =
  | { action: 'continue'; reason: string }
  | { action: 'abort'; reason: string; numbers: string }
  | { action: 'promote'; reason: string; numbers: string };

/**
 * Rates and ratios are computed in floating point: 7/100 - 5/100 is
 * 0.020000000000000004, which must not count as more than 0.02. A
 * difference this small is below any threshold an operator sets.
 */
const TOLERANCE = 1e-9;

const percentOf = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
const pointsOf = (fraction: number) => (fraction * 100).toFixed(1);
const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** `candidate contact-9: 11 visits, 6 failures (54.5 %)`, and the vitals the rules looked at. */
function describe(role: string, id: string, health: ReleaseHealth, vitals: readonly Vital[]): string {
  const counts = health.visits === 0 ? 'no visits' : `${plural(health.visits, 'visit')}, ${plural(health.failures, 'failure')} (${percentOf(health.failureRate)})`;
  const shown = vitals.map((vital) => (health[vital.key] === null ? `no ${vital.name}` : `${vital.name} ${vital.format(health[vital.key]!)}`));
  return [`${role} ${id}: ${counts}`, ...shown].join(', ');
}

interface Vital {
  key: 'lcpP75' | 'inpP75';
  name: string;
  format: (value: number) => string;
}

const VITALS: readonly Vital[] = [
  { key: 'lcpP75', name: 'p75 LCP', format: (ms) => `${Math.round(ms)} ms` },
  { key: 'inpP75', name: 'p75 INP', format: (ms) => `${Math.round(ms)} ms` },
];

/**
 * The canary's judgement on both releases' health since it started, a
 * pure function of its thresholds and the two aggregates:
 *
 * - nothing is decided before the candidate has `minVisits` visits;
 * - abort when the candidate's failure rate is over the active's by more
 *   than `maxFailureDelta`, or its p75 LCP or p75 INP is slower than the
 *   active's by more than `maxSlowdown` (each compared only when both
 *   releases have it, and the active's is above zero: a ratio to nothing
 *   says nothing). An active release with no visits in the window counts
 *   as failing none: a candidate failing visits of its own is not excused
 *   by the lack of a baseline;
 * - promote, when `promoteAfterVisits` is set, once the candidate has had
 *   that many visits with no rule broken and its failure rate at or under
 *   the active's;
 * - otherwise continue.
 *
 * `activeId` names the active release in the numbers.
 */
export function decideCanary(canary: Pick<Canary, 'release' | 'minVisits' | 'maxFailureDelta' | 'maxSlowdown' | 'promoteAfterVisits'>, health: CanaryHealth, activeId = 'release'): CanaryDecision {
  const { active, candidate } = health;
  const id = canary.release.id;
  if (candidate.visits < canary.minVisits) {
    return { action: 'continue', reason: `${id} has ${plural(candidate.visits, 'visit')} of the ${canary.minVisits} it needs to be judged` };
  }

  const broken: string[] = [];
  const slow: Vital[] = [];
  const delta = candidate.failureRate - active.failureRate;
  const failingMore = delta > canary.maxFailureDelta + TOLERANCE;
  if (failingMore) broken.push(`failure rate ${pointsOf(delta)} points over, more than ${pointsOf(canary.maxFailureDelta)}`);
  for (const vital of VITALS) {
    const mine = candidate[vital.key];
    const theirs = active[vital.key];
    if (mine === null || theirs === null || theirs <= 0) continue;
    const slowdown = mine / theirs - 1;
    if (slowdown > canary.maxSlowdown + TOLERANCE) {
      slow.push(vital);
      broken.push(`${vital.name} ${percentOf(slowdown)} slower, more than ${percentOf(canary.maxSlowdown)}`);
    }
  }
  const numbers = (vitals: readonly Vital[], verdict: string[]) => [describe('candidate', id, candidate, vitals), describe('active', activeId, active, vitals), ...verdict].join('; ');

  if (broken.length > 0) {
    const rules = [...(failingMore ? ['its failure rate'] : []), ...slow.map((vital) => `its ${vital.name}`)];
    return { action: 'abort', reason: `${id} is worse than ${activeId}: ${rules.join(' and ')} past the threshold`, numbers: numbers(slow, broken) };
  }

  const healthy = `healthy over ${plural(candidate.visits, 'visit')}`;
  if (canary.promoteAfterVisits === null || candidate.visits < canary.promoteAfterVisits) {
    const then = canary.promoteAfterVisits === null ? '' : `; promoted at ${canary.promoteAfterVisits}`;
    return { action: 'continue', reason: `${id} is ${healthy}${then}` };
  }
  if (delta > TOLERANCE) {
    return {
      action: 'continue',
      reason: `${id} is ${healthy}, but its failure rate (${percentOf(candidate.failureRate)}) is over ${activeId}'s (${percentOf(active.failureRate)}): not promoted`,
    };
  }
  const margin = Math.abs(delta) <= TOLERANCE ? 'failure rate the same' : `failure rate ${pointsOf(-delta)} points under`;
  return {
    action: 'promote',
    reason: `${id} is ${healthy} (promoted at ${canary.promoteAfterVisits}), its failure rate at or under ${activeId}'s`,
    numbers: numbers(VITALS, [margin]),
  };
}
