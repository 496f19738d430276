import type { Logger } from '@portico/platform/logging';
import type { HealthStore } from '../health/health-store';
import type { Canaries } from '../store/canaries';
import { systemClock, type JobClock } from './job-clock';

/** How often the hours older than the retention are deleted (and first, this long after start). */
const PRUNE_EVERY_MS = 60 * 60_000;
const FIRST_PRUNE_MS = 60_000;
/** How often the visit ids past their expiry are forgotten. */
const VISIT_SWEEP_MS = 10 * 60_000;

export interface HealthPruneOptions {
  health: Pick<HealthStore, 'deleteOlderThan' | 'deleteExpiredVisits'>;
  canaries: Pick<Canaries, 'deleteCountsOlderThan'>;
  /** How many days of hours are kept (PORTICO_HEALTH_RETENTION_DAYS). */
  retentionDays: number;
  /** What was deleted: info; a delete that failed: error (tried again at the next round). */
  log: Logger;
  /** The time the retention counts back from, and the timers (the system's by default; a test's hand-turned one). */
  clock?: JobClock;
}

export interface HealthPrune {
  /** Stops the timers, once the rounds under way are done. */
  close(): Promise<void>;
}

/**
 * Deletes the health and canary counts of hours older than the retention,
 * every hour, and forgets the counted visit ids past their expiry (no
 * report can name one after it) every 10 minutes. Every server runs it: a
 * delete of what another server deleted already deletes nothing.
 */
export function startHealthPrune(options: HealthPruneOptions): HealthPrune {
  const { health, canaries, retentionDays, log } = options;
  const clock = options.clock ?? systemClock;
  let pruning: Promise<void> = Promise.resolve();
  const prune = () =>
    (pruning = pruning
      .then(async () => {
        const now = clock.now();
        const deleted = (await health.deleteOlderThan(retentionDays, now)) + (await canaries.deleteCountsOlderThan(retentionDays, now));
        if (deleted > 0) log.info({ deleted, retentionDays }, `health: deleted ${deleted} row(s) of hours older than ${retentionDays} days`);
      })
      .catch((error: unknown) => log.error({ err: error }, 'health: deleting old hours failed (tried again in an hour)')));
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () =>
    (sweeping = sweeping
      .then(async () => void (await health.deleteExpiredVisits(clock.now())))
      .catch((error: unknown) => log.error({ err: error }, 'health: forgetting expired visit ids failed (tried again in 10 minutes)')));
  const stopPruning = clock.every(PRUNE_EVERY_MS, () => void prune(), FIRST_PRUNE_MS);
  const stopSweeping = clock.every(VISIT_SWEEP_MS, () => void sweep());
  return {
    async close() {
      stopPruning();
      stopSweeping();
      await Promise.all([pruning, sweeping]);
    },
  };
}
