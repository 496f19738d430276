import type { SectionId } from '@portico/contract/sections';
import type { Logger } from '@portico/platform/logging';
import { CONFIG_BASELINE, type Canary } from '../release';
import { JUDGE_ACTOR } from '../scopes';
import type { Canaries } from '../store/canaries';
import type { Releases } from '../store/releases';
import type { CanaryCounts } from '../canary/canary-counts';
import { judgeCanary, type CanaryDecision } from '../canary/decide-canary';
import { systemClock, type JobClock } from './job-clock';

/** How often each server judges the canaries: a candidate failing its visitors is served at most this much longer than it must. */
export const JUDGE_EVERY_MS = 5000;

// Declared with the server's other actors, which no token may be named.
export { JUDGE_ACTOR };

/** What the judge reads of a canary: both releases' counts since it started, its own only (Canaries.counts). */
export type CanaryCountsSource = (canary: Canary, activeId: string) => Promise<CanaryCounts>;

export interface CanaryJudgeOptions {
  store: { canaries: Pick<Canaries, 'running' | 'settle'>; releases: Pick<Releases, 'active'> };
  counts: CanaryCountsSource;
  everyMs?: number;
  /** The timers that start each round (the system's by default; a test's hand-turned one). */
  clock?: JobClock;
  /** A promotion info, a rollback warn, a round that cannot judge error (once per outage). */
  log: Logger;
}

export interface CanaryJudge {
  /** One round now, after any round under way; resolves when it is done (a failure is logged, not thrown). */
  judgeNow(): Promise<void>;
  /** Stops judging, once the round under way is done. */
  close(): Promise<void>;
}

/**
 * Judges every running canary every `everyMs`, on every server. For each
 * canary it reads both releases' counts kept for that canary alone (per
 * network, and what the servers saw), then,
 * under the section's lock, checks the canary is still the one it read and
 * decides: a rollback or a promotion is applied, audited with its numbers
 * and announced in that transaction, so it happens once whichever server
 * gets there first; the others find the canary gone.
 *
 * The counts are read before the lock, not under it: the source reads
 * through the database object, which on the embedded database (one
 * connection) would wait for the very transaction holding the lock, and a
 * section's activations need not wait for an aggregate query.
 */
export function startCanaryJudge(options: CanaryJudgeOptions): CanaryJudge {
  const { store, log } = options;
  let lastProblem: string | undefined;

  const judge = async (section: SectionId, activeId: string, canary: Canary) => {
    const counts = await options.counts(canary, activeId);
    let decision: CanaryDecision | undefined;
    const settled = await store.canaries.settle(
      section,
      { release: canary.release.id, startedAt: canary.startedAt },
      (now, activeNow) => {
        // Another active release than the counts were read for: judged next round.
        if (activeNow !== activeId) return undefined;
        decision = judgeCanary(now, counts, activeNow);
        if (decision.action === 'continue') return undefined;
        return {
          action: decision.action === 'abort' ? 'auto-rollback' : 'promote',
          detail: `${decision.reason} — ${decision.numbers}`,
          ...(decision.figures && { figures: decision.figures }),
        };
      },
      JUDGE_ACTOR,
    );
    if (!settled) return;
    const fields = { section, release: canary.release.id, detail: settled.detail };
    if (settled.action === 'promote') log.info(fields, 'canary: promoted');
    else log.warn(fields, 'canary: rolled back automatically');
  };

  const round = async () => {
    const problems: string[] = [];
    try {
      const [canaries, active] = await Promise.all([store.canaries.running(), store.releases.active()]);
      for (const [section, canary] of Object.entries(canaries) as [SectionId, Canary][]) {
        // No active release: the canary is judged against config.json's URL (an activation would have ended it).
        const activeId = active[section]?.id ?? CONFIG_BASELINE;
        await judge(section, activeId, canary).catch((error: unknown) => problems.push(`${section}: ${(error as Error).message}`));
      }
    } catch (error) {
      problems.push((error as Error).message);
    }
    // Once per outage, not every round: a database away for a minute is one line, and one when it is back.
    const problem = problems.join('; ') || undefined;
    if (problem !== undefined && problem !== lastProblem)
      log.error({ problem, retryEveryMs: options.everyMs ?? JUDGE_EVERY_MS }, 'canary: the canaries cannot be judged now');
    if (problem === undefined && lastProblem !== undefined) log.info('canary: judging the canaries again');
    lastProblem = problem;
  };

  let rounds: Promise<void> = Promise.resolve();
  let queued = 0;
  let closed = false;
  const judgeNow = () => {
    queued++;
    rounds = rounds.then(round).finally(() => queued--);
    return rounds;
  };
  const stop = (options.clock ?? systemClock).every(options.everyMs ?? JUDGE_EVERY_MS, () => {
    // A slow round is not piled on: the next tick after it runs.
    if (queued === 0 && !closed) void judgeNow();
  });

  return {
    judgeNow,
    async close() {
      closed = true;
      stop();
      await rounds;
    },
  };
}
