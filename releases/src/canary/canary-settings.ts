import type { Canary } from '../release';

/** What a canary is started with: the share of visits and the thresholds (the audit log and `GET /api/sections` show them). */
export type CanarySettings = Pick<
  Canary,
  'percent' | 'minVisits' | 'maxFailureDelta' | 'maxSlowdown' | 'promoteAfterVisits' | 'minNetworks' | 'maxNetworkShare'
>;

/** A start's request: the share, and any threshold not given takes its CANARY_DEFAULTS value. */
export type CanaryOptions = Pick<Canary, 'percent'> & Partial<Omit<CanarySettings, 'percent'>>;

/** Beyond these a threshold is a typo, not a choice (the visit counts are far above what a day of traffic gives). */
const MOST_VISITS = 10_000_000;
const MOST_SLOWDOWN = 10;
/** More networks than a decision could ever wait for on a real site's canary. */
const MOST_NETWORKS = 10_000;

/**
 * The one check of a canary's settings, made by the store (the control API
 * passes settings on and answers the store's refusal): the field that is
 * wrong and why, or undefined when all are right.
 */
export function canarySettingsProblem(settings: CanarySettings): { field: keyof CanarySettings; problem: string } | undefined {
  const { percent, minVisits, maxFailureDelta, maxSlowdown, promoteAfterVisits, minNetworks, maxNetworkShare } = settings;
  if (!Number.isInteger(percent) || percent < 1 || percent > 99)
    return { field: 'percent', problem: 'a whole number from 1 to 99 (the share of visits the candidate gets)' };
  if (!Number.isInteger(minVisits) || minVisits < 1 || minVisits > MOST_VISITS)
    return { field: 'minVisits', problem: `a whole number from 1 to ${MOST_VISITS}` };
  if (!Number.isFinite(maxFailureDelta) || maxFailureDelta < 0 || maxFailureDelta > 1)
    return { field: 'maxFailureDelta', problem: 'a fraction from 0 to 1 (0.02 is 2 percentage points)' };
  if (!Number.isFinite(maxSlowdown) || maxSlowdown < 0 || maxSlowdown > MOST_SLOWDOWN)
    return { field: 'maxSlowdown', problem: `a fraction from 0 to ${MOST_SLOWDOWN} (0.25 is 25 % slower)` };
  if (promoteAfterVisits !== null && (!Number.isInteger(promoteAfterVisits) || promoteAfterVisits < minVisits || promoteAfterVisits > MOST_VISITS)) {
    // Nothing is judged before minVisits, so a smaller number would read as a promise the judge cannot keep.
    return { field: 'promoteAfterVisits', problem: `null, or a whole number from minVisits (${minVisits}) to ${MOST_VISITS}` };
  }
  if (!Number.isInteger(minNetworks) || minNetworks < 1 || minNetworks > MOST_NETWORKS) {
    return {
      field: 'minNetworks',
      problem: `a whole number from 1 to ${MOST_NETWORKS} (the distinct client networks a decision needs; 1 for a test on one machine)`,
    };
  }
  if (!Number.isFinite(maxNetworkShare) || maxNetworkShare <= 0 || maxNetworkShare > 1)
    return { field: 'maxNetworkShare', problem: 'a fraction over 0, at most 1 (0.2: no network supplies more than 20 % of the counts)' };
  // minNetworks networks at the bound must be able to make up the whole, or no decision could ever be taken.
  if (minNetworks > 1 && maxNetworkShare * minNetworks < 1 - 1e-9) {
    return {
      field: 'maxNetworkShare',
      problem: `at least 1 / minNetworks (${(1 / minNetworks).toFixed(3)}): ${minNetworks} networks of at most ${maxNetworkShare} each cannot make up the counts`,
    };
  }
  return undefined;
}

/** `from 5 networks, none over 20.0 % of the counts`: how the network bounds read (one network: none). */
export function describeNetworks(settings: Pick<CanarySettings, 'minNetworks' | 'maxNetworkShare'>): string {
  if (settings.minNetworks <= 1) return 'any network may decide (minNetworks 1)';
  return `decided from ${settings.minNetworks} networks at least, none over ${(settings.maxNetworkShare * 100).toFixed(1)} % of the counts, and only when no single network left out changes the decision`;
}

/** `2.0 points`, `25 %`: how a threshold reads in the audit log and on the command line. */
export function describeThresholds(settings: Omit<CanarySettings, 'percent'>): string {
  const promote =
    settings.promoteAfterVisits === null ? 'not promoted automatically' : `promoted automatically after ${settings.promoteAfterVisits} healthy visits`;
  return (
    `judged from ${settings.minVisits} visits: rolled back when its failure rate is over the active's by more than ${(settings.maxFailureDelta * 100).toFixed(1)} points ` +
    `or its p75 LCP or INP more than ${(settings.maxSlowdown * 100).toFixed(1)} % slower; ${promote}; ${describeNetworks(settings)}`
  );
}
