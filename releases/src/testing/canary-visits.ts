import { createHash, randomBytes } from 'node:crypto';
import type { VisitReport } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import { hourOf, type HealthStore, type TakenReport } from '../health/health-store';
import { judgedKeys, reportCounts } from '../health/visit-report';

/**
 * For tests: `visits` reports from one network for `release` in a running
 * canary, `failures` of them failed, counted as the beacon counts them (into
 * release_health and the canary's per-network counts, each id once).
 */
export async function recordCanaryVisits(
  health: HealthStore,
  options: { canaryId: number; section: SectionId; release: string; network: string; visits: number; failures: number },
): Promise<void> {
  const { canaryId, section, release, network } = options;
  // Any 16 bytes stand for the network's keyed hash: the tests read counts, never which network.
  const hashed = createHash('sha256').update(network).digest().subarray(0, 16);
  const reports: TakenReport[] = Array.from({ length: options.visits }, (_, index) => {
    const report: VisitReport = {
      v: 2,
      visit: 'counted',
      sections: { [section]: index < options.failures ? { release, arrival: 'failed', failure: 'render' } : { release, arrival: 'ssr' } },
      vitals: { lcp: 1800, inp: 80 },
    };
    return {
      visit: randomBytes(16).toString('hex'),
      expiresAt: new Date(Date.now() + 3_600_000),
      hour: hourOf(Date.now()),
      counts: reportCounts(report, [section]),
      canary: judgedKeys(report, section).map((key) => ({ canaryId, network: hashed, releaseId: release, key })),
    };
  });
  await health.recordReports(reports);
}
