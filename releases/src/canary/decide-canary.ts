import type { Canary, ReleaseHealth } from '../release';
import { percentiles } from '../health/vital-histogram';
import type { CanaryCounts, NetworkCounts, ServerSignals } from './canary-counts';

/** Both releases' health over the same window: since the canary started. */
export interface CanaryHealth {
  active: ReleaseHealth;
  candidate: ReleaseHealth;
}

/** Each release's visits and failure rate the judge read, for the audit's facts (a console words them, issue 49). */
interface DecidingFigures {
  visits: number;
  failureRate: number;
  activeVisits: number;
  activeFailureRate: number;
  /** The vitals past maxSlowdown, each by how much slower (a fraction: 0.4 is 40 % slower); absent when none. */
  slower?: { vital: Vital['key']; by: number }[];
}

/** What the judge does with a canary, why in a sentence, and for an ending the numbers that decided it (`figures` when read from visits). */
export type CanaryDecision =
  | { action: 'continue'; reason: string }
  | { action: 'abort'; reason: string; numbers: string; figures?: DecidingFigures }
  | { action: 'promote'; reason: string; numbers: string; figures?: DecidingFigures };

/**
 * Rates and ratios are computed in floating point: 7/100 - 5/100 is
 * 0.020000000000000004, which must not count as more than 0.02. A
 * difference this small is below any threshold an operator sets.
 */
const TOLERANCE = 1e-9;

const percentOf = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
const pointsOf = (fraction: number) => (fraction * 100).toFixed(1);
/** A count as it reads: whole counts as they are, the judge's bounded (weighted) ones to a tenth. */
const countOf = (count: number) => (Number.isInteger(count) ? String(count) : count.toFixed(1));
const plural = (count: number, one: string) => `${countOf(count)} ${one}${count === 1 ? '' : 's'}`;

/** `candidate contact-9: 11 visits, 6 failures (54.5 %)`, and the vitals the rules looked at. */
function describe(role: string, id: string, health: ReleaseHealth, vitals: readonly Vital[]): string {
  const counts =
    health.visits === 0 ? 'no visits' : `${plural(health.visits, 'visit')}, ${plural(health.failures, 'failure')} (${percentOf(health.failureRate)})`;
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
export function decideCanary(
  canary: Pick<Canary, 'release' | 'minVisits' | 'maxFailureDelta' | 'maxSlowdown' | 'promoteAfterVisits'>,
  health: CanaryHealth,
  activeId = 'release',
): CanaryDecision {
  const { active, candidate } = health;
  const id = canary.release.id;
  if (candidate.visits < canary.minVisits) {
    return { action: 'continue', reason: `${id} has ${plural(candidate.visits, 'visit')} of the ${canary.minVisits} it needs to be judged` };
  }

  const broken: string[] = [];
  const slow: Vital[] = [];
  const slower: NonNullable<DecidingFigures['slower']> = [];
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
      slower.push({ vital: vital.key, by: slowdown });
      broken.push(`${vital.name} ${percentOf(slowdown)} slower, more than ${percentOf(canary.maxSlowdown)}`);
    }
  }
  const figures = { visits: candidate.visits, failureRate: candidate.failureRate, activeVisits: active.visits, activeFailureRate: active.failureRate };
  const numbers = (vitals: readonly Vital[], verdict: string[]) =>
    [describe('candidate', id, candidate, vitals), describe('active', activeId, active, vitals), ...verdict].join('; ');

  if (broken.length > 0) {
    const rules = [...(failingMore ? ['its failure rate'] : []), ...slow.map((vital) => `its ${vital.name}`)];
    return {
      action: 'abort',
      reason: `${id} is worse than ${activeId}: ${rules.join(' and ')} past the threshold`,
      numbers: numbers(slow, broken),
      figures: { ...figures, ...(slower.length > 0 && { slower }) },
    };
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
    figures,
  };
}

/**
 * The water-filling cap: the largest number of visits `c` such that a
 * network's visits counted as min(its visits, c) are at most `share` of
 * all networks' counted visits. Infinity when no network is over the share
 * uncapped; 0 when fewer than 1 / share networks have visits (no cap could
 * then keep each under the share).
 */
export function networkCap(visits: readonly number[], share: number): number {
  const sorted = visits.filter((count) => count > 0).sort((a, b) => a - b);
  if (share >= 1) return Number.POSITIVE_INFINITY;
  let below = 0;
  for (const [index, count] of sorted.entries()) {
    // For a cap between the previous count and this one: the networks from here on are capped.
    const capped = sorted.length - index;
    const room = 1 - share * capped;
    if (room > 0) {
      const most = (share * below) / room;
      if (most < count) return most;
    }
    below += count;
  }
  return Number.POSITIVE_INFINITY;
}

/** One release's bounded aggregate (the network cap applied), with the servers' own signals added; `without` leaves one network out. */
function aggregate(all: readonly NetworkCounts[], share: number, signals: ServerSignals, without?: string): ReleaseHealth {
  const networks = all.filter((counts) => counts.network !== without && counts.visits > 0);
  const cap = networkCap(
    networks.map((counts) => counts.visits),
    share,
  );
  let visits = 0;
  let failures = signals.renderFailures + signals.contactErrors;
  const lcp = new Map<number, number>();
  const inp = new Map<number, number>();
  for (const counts of networks) {
    // A network over the cap counts as `cap` visits; its failures and vitals in proportion.
    const weight = Math.min(counts.visits, cap) / counts.visits;
    visits += counts.visits * weight;
    failures += counts.failures * weight;
    for (const [histogram, into] of [
      [counts.lcp, lcp],
      [counts.inp, inp],
    ] as const) {
      for (const [bucket, count] of histogram) into.set(bucket, (into.get(bucket) ?? 0) + count * weight);
    }
  }
  return {
    visits,
    failures,
    failureRate: visits === 0 ? 0 : Math.min(1, failures / visits),
    failuresByClass: {},
    lcpP75: percentiles('lcp', lcp, [0.75])[0]!,
    inpP75: percentiles('inp', inp, [0.75])[0]!,
    clsP75: null,
  };
}

const networksWithVisits = (networks: readonly NetworkCounts[]) => networks.filter((counts) => counts.visits > 0);

/** The share bound as the judge applies it: `minNetworks: 1` lifts it. */
export const shareOf = (canary: Pick<Canary, 'minNetworks' | 'maxNetworkShare'>) => (canary.minNetworks <= 1 ? 1 : canary.maxNetworkShare);

/**
 * Both releases' health as the judge counts it before deciding: each
 * network bounded to its share, the servers' own failures added (step 2 of
 * judgeCanary, before any network is left out). What operators are shown
 * beside the reports as received (GET /api/sections' `health`).
 */
export function countedHealth(canary: Pick<Canary, 'minNetworks' | 'maxNetworkShare'>, counts: CanaryCounts): CanaryHealth {
  const share = shareOf(canary);
  return {
    active: aggregate(counts.active.networks, share, counts.active.signals),
    candidate: aggregate(counts.candidate.networks, share, counts.candidate.signals),
  };
}

/**
 * The judge's decision on a canary from what it can trust (docs/releases.md,
 * "When the judge decides"), a pure function of the canary's settings and
 * its counts:
 *
 * 1. What the servers saw needs no visitor: a candidate whose node build a
 *    server set aside, or whose files failed the background check, is
 *    rolled back at once (unless the active release fares the same).
 * 2. What visitors reported is bounded per network, for each release: each
 *    network's visits count at most up to the water-filling cap that keeps
 *    any one network at or under `maxNetworkShare` of the release's counted
 *    visits, its failures and vitals scaled with them. The servers' render
 *    failures and contact 5xx answers are added as failures, unbounded (no
 *    visitor sends them).
 * 3. No decision before the candidate has visits from `minNetworks` networks.
 * 4. The rules of decideCanary on the bounded aggregates.
 * 5. An abort or a promotion is taken only if the same decision follows
 *    from the counts with any one network left out (bounded again without
 *    it): whatever one network sends, it can only add to a decision that the
 *    other networks' reports reach on their own.
 *
 * `minNetworks: 1` lifts 2's share bound, 3 and 5 (one network is then all
 * there is): the counts add up as they are, and decideCanary decides alone.
 */
export function judgeCanary(
  canary: Parameters<typeof decideCanary>[0] & Pick<Canary, 'minNetworks' | 'maxNetworkShare'>,
  counts: CanaryCounts,
  activeId = 'release',
): CanaryDecision {
  const id = canary.release.id;
  const { active, candidate } = counts;
  if (candidate.signals.setAside > 0 && active.signals.setAside === 0) {
    return {
      action: 'abort',
      reason: `${id} is worse than ${activeId}: its node build was set aside on the server`,
      numbers: `candidate ${id}: set aside ${plural(candidate.signals.setAside, 'time')} by a server (its render workers died again and again); active ${activeId}: rendered on the server`,
    };
  }
  if (candidate.signals.broken !== null && active.signals.broken === null) {
    return {
      action: 'abort',
      reason: `${id} is worse than ${activeId}: its files failed the background check`,
      numbers: `candidate ${id}: ${candidate.signals.broken}`,
    };
  }

  const lifted = canary.minNetworks <= 1;
  const share = shareOf(canary);
  const decideWithout = (without?: string) =>
    decideCanary(
      canary,
      { active: aggregate(active.networks, share, active.signals, without), candidate: aggregate(candidate.networks, share, candidate.signals, without) },
      activeId,
    );
  const networks = { active: networksWithVisits(active.networks).length, candidate: networksWithVisits(candidate.networks).length };
  if (!lifted && networks.candidate < canary.minNetworks) {
    return { action: 'continue', reason: `${id} has visits from ${plural(networks.candidate, 'network')} of the ${canary.minNetworks} a decision needs` };
  }
  const decision = decideWithout();
  if (decision.action === 'continue' || lifted) return decision;

  const everyNetwork = new Set([...networksWithVisits(active.networks), ...networksWithVisits(candidate.networks)].map((counts) => counts.network));
  for (const network of everyNetwork) {
    const again = decideWithout(network);
    if (again.action !== decision.action) {
      return {
        action: 'continue',
        reason: `${id}: ${decision.action === 'abort' ? 'a rollback' : 'a promotion'} would rest on one network's reports (without them: ${again.reason})`,
      };
    }
  }
  const bounds = `visits from ${plural(networks.candidate, 'network')} (candidate) and ${plural(networks.active, 'network')} (active), none counted over ${percentOf(canary.maxNetworkShare)}, the same with any one left out`;
  return { ...decision, numbers: `${decision.numbers}; ${bounds}` };
}
