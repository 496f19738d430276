import type { SectionId } from '@portico/contract/sections';
import type { Database, Sql } from '@portico/platform/database';
import { readCanaryCounts, type CanaryCounts } from '../canary/canary-counts';
import { endCanary } from '../health/counted-reports';
import { canarySettingsProblem, describeThresholds, type CanaryOptions, type CanarySettings } from '../canary/canary-settings';
import type { AuditFacts } from '@portico/control-contract';
import { CANARY_DEFAULTS, CONFIG_BASELINE, type Canary } from '../release';
import { ReleaseError } from './release-error';
import { canariesIn, joined, releaseOf } from './release-rows';
import { announce, lockedSection, pushActivation, type StackEntry } from './section-lock';
import { switchOf, type SectionSwitch } from './section-states';

/** How the judge ends a canary, in the audit log's words, and the figures it read (for a console to word). */
export interface CanarySettlement {
  action: 'promote' | 'auto-rollback';
  detail: string;
  figures?: JudgedFigures;
}

/** What the judge read of both releases when it ended a canary. */
type JudgedFigures = NonNullable<Extract<AuditFacts, { kind: 'abort' }>['judged']>;

/**
 * The canaries: a release served to a share of a section's visits beside
 * its active release, judged on both releases' counts kept for that canary
 * alone, then promoted or aborted. Every change is made under the
 * section's lock, audited and announced (section-lock.ts).
 */
export class Canaries {
  /**
   * `now`: the clock a canary's start is stamped with (tests pin it, so two
   * starts fall in one hour whatever the wall clock does); without it the
   * database's `now()` stamps it, one clock for every server.
   */
  constructor(
    private readonly db: Database,
    private readonly now?: () => number,
  ) {}

  /** The canaries running now, by section. */
  async running(): Promise<Partial<Record<SectionId, Canary>>> {
    const canaries: Partial<Record<SectionId, Canary>> = {};
    for (const [section, { canary }] of await canariesIn(this.db)) canaries[section] = canary;
    return canaries;
  }

  /**
   * Starts serving `releaseId` to `options.percent` % of the section's
   * visits beside its active release; a threshold not given takes its
   * CANARY_DEFAULTS value. The release must be the section's (404, 409),
   * not the active one (409). With no active release, it is judged against
   * config.json's URL (CONFIG_BASELINE), which a promotion's rollback
   * returns to. A canary of another release already
   * running: 409 (promote or abort it first: replacing it would drop its
   * judgement unseen). The same release again changes its share and the
   * thresholds given (the others stay), keeping its start: raising the
   * share step by step keeps every visitor already in the candidate's
   * cohort in it, and the judgement's window whole.
   */
  start(section: SectionId, releaseId: string, options: CanaryOptions & { note?: string | null }, actor: string): Promise<Canary> {
    return lockedSection(this.db, section, async (sql, { stack, canary: running }) => {
      await releaseOf(sql, section, releaseId);
      // With no active release, the baseline is config.json's URL: what visitors outside the cohort get, and what an abort returns to.
      const active = stack[0]?.release_id;
      if (active === releaseId) throw new ReleaseError('conflict', `${releaseId} is already the active release of ${section}`);
      if (running && running.canary.release.id !== releaseId) {
        throw new ReleaseError(
          'conflict',
          `${section} already has a canary, ${running.canary.release.id} (${running.canary.percent} % since ${running.canary.startedAt}): promote or abort it first`,
        );
      }
      const given = Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && key !== 'note')) as Partial<CanarySettings>;
      const { id: _id, ...runningSettings } = running?.canary ?? { id: 0 };
      const settings: CanarySettings = { ...CANARY_DEFAULTS, ...runningSettings, ...given } as CanarySettings;
      const problem = canarySettingsProblem(settings);
      if (problem) throw new ReleaseError('invalid', `${problem.field}: ${problem.problem}`, problem.field);
      const values = [
        section,
        releaseId,
        settings.percent,
        settings.minVisits,
        settings.maxFailureDelta,
        settings.maxSlowdown,
        settings.promoteAfterVisits,
        settings.minNetworks,
        settings.maxNetworkShare,
      ];
      let detail: string;
      if (running) {
        await sql.query(
          `UPDATE release_canaries SET percent = $3, min_visits = $4, max_failure_delta = $5, max_slowdown = $6, promote_after_visits = $7,
             min_networks = $8, max_network_share = $9
           WHERE section = $1 AND release_id = $2`,
          values,
        );
        detail = `now ${settings.percent} % of visits (was ${running.canary.percent} %), started ${running.canary.startedAt}; ${describeThresholds(settings)}`;
      } else {
        await sql.query(
          `INSERT INTO release_canaries (section, release_id, percent, min_visits, max_failure_delta, max_slowdown, promote_after_visits, min_networks, max_network_share, started_by, started_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, COALESCE($11::timestamptz, now()))`,
          [...values, actor, this.now ? new Date(this.now()).toISOString() : null],
        );
        detail = `${settings.percent} % of visits; ${describeThresholds(settings)}`;
      }
      if (active === undefined) detail = `${detail}; judged against config.json's URL (no release is active)`;
      const { percent, ...thresholds } = settings;
      const facts: AuditFacts = {
        kind: 'canary',
        percent,
        thresholds,
        ...(running && { was: { percent: running.canary.percent, startedAt: running.canary.startedAt } }),
        againstConfig: active === undefined,
      };
      const note = options.note;
      await announce(sql, section, { actor, action: 'canary', release: releaseId, from: active ?? null, detail: joined(note, detail), facts, note }, false);
      return (await canariesIn(sql, section)).get(section)!.canary;
    });
  }

  /**
   * Makes the section's candidate its active release, through the
   * activation history as an activation does (so a rollback goes back to
   * the release it replaced), and ends the canary. 409 when none runs.
   */
  promote(section: SectionId, actor: string, detail?: string | null): Promise<SectionSwitch> {
    return lockedSection(this.db, section, async (sql, { stack, canary }) => {
      if (!canary) throw new ReleaseError('conflict', `${section} has no canary to promote`);
      await promoteIn(sql, section, stack, canary.canary, actor, detail);
      return switchOf(sql, section);
    });
  }

  /** Ends the section's canary, its candidate served to no one: `abort` by an operator, `auto-rollback` by the judge. 409 when none runs. */
  abort(section: SectionId, actor: string, action: 'abort' | 'auto-rollback', detail?: string | null): Promise<Canary> {
    return lockedSection(this.db, section, async (sql, { stack, canary }) => {
      if (!canary) throw new ReleaseError('conflict', `${section} has no canary to abort`);
      await abortIn(sql, section, stack, canary.canary, actor, action, detail);
      return canary.canary;
    });
  }

  /**
   * The judge's step, taken once whichever server gets there first: under
   * the section's lock, `decide` sees the canary as it is now (its
   * thresholds included) and the active release, and answers how the
   * canary ends, or undefined to let it run (nothing recorded). A canary
   * other than `expected` (ended meanwhile, or another one started) is left
   * alone: the health the caller read was of another window.
   */
  settle(
    section: SectionId,
    expected: { release: string; startedAt: string },
    decide: (canary: Canary, active: string) => CanarySettlement | undefined,
    actor: string,
  ): Promise<CanarySettlement | undefined> {
    return lockedSection(this.db, section, async (sql, { stack, canary }) => {
      const active = stack[0]?.release_id ?? CONFIG_BASELINE;
      if (!canary || canary.canary.release.id !== expected.release || canary.canary.startedAt !== expected.startedAt) return undefined;
      const settlement = decide(canary.canary, active);
      // The judge's reason is its own English sentence, kept in the detail; its figures go in the facts.
      const judged = settlement && { note: null, figures: settlement.figures ?? null };
      if (settlement?.action === 'promote') await promoteIn(sql, section, stack, canary.canary, actor, settlement.detail, judged);
      else if (settlement) await abortIn(sql, section, stack, canary.canary, actor, 'auto-rollback', settlement.detail, judged);
      return settlement;
    });
  }

  /**
   * Both releases' counts kept for `canary` alone: per network what its
   * visitors reported since it started, and what the servers saw
   * themselves. A canary started again, even of the same release in the
   * same hour, is another canary: nothing of the one before is read.
   */
  counts(canary: Pick<Canary, 'id' | 'release'>, activeId: string): Promise<CanaryCounts> {
    return readCanaryCounts(this.db, canary.id, { active: activeId, candidate: canary.release.id });
  }

  /**
   * Deletes the canaries' per-network counts, and what ended canaries' judges
   * left out (canary_bounded), of hours older than `days` days, as
   * release_health's hours are: the reports they bound go at the same time.
   */
  async deleteCountsOlderThan(days: number, now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
    let deleted = 0;
    for (const table of ['canary_network_counts', 'canary_bounded']) {
      const rows = await this.db.query<{ n: number }>(
        `WITH gone AS (DELETE FROM ${table} WHERE hour < $1::timestamptz RETURNING 1) SELECT count(*)::integer AS n FROM gone`,
        [cutoff],
      );
      deleted += rows[0]?.n ?? 0;
    }
    return deleted;
  }
}

/** How a canary's end reads in the facts: an operator's note, or the judge's figures (`figures` null: the judge, figures unknown). */
interface EndedBy {
  note: string | null | undefined;
  figures?: JudgedFigures | null;
}

function endFacts(kind: 'promote' | 'abort', canary: Canary, by: EndedBy): AuditFacts {
  return { kind, percent: canary.percent, startedAt: canary.startedAt, ...(by.figures && { judged: by.figures }) };
}

async function promoteIn(
  sql: Sql,
  section: SectionId,
  stack: StackEntry[],
  canary: Canary,
  actor: string,
  detail: string | null | undefined,
  by: EndedBy = { note: detail },
): Promise<void> {
  await pushActivation(sql, section, canary.release.id, actor);
  await endCanary(sql, section, canary);
  const fallback = `promoted from the canary (${canary.percent} % of visits since ${canary.startedAt})`;
  const facts = endFacts('promote', canary, by);
  await announce(
    sql,
    section,
    { actor, action: 'promote', release: canary.release.id, from: stack[0]?.release_id ?? null, detail: detail || fallback, facts, note: by.note },
    true,
  );
}

async function abortIn(
  sql: Sql,
  section: SectionId,
  stack: StackEntry[],
  canary: Canary,
  actor: string,
  action: 'abort' | 'auto-rollback',
  detail: string | null | undefined,
  by: EndedBy = { note: detail },
): Promise<void> {
  await endCanary(sql, section, canary);
  const fallback = `the canary ended (${canary.percent} % of visits since ${canary.startedAt}); every visit gets ${stack[0]?.release_id ?? "config.json's URL"}`;
  const facts = endFacts('abort', canary, by);
  await announce(
    sql,
    section,
    { actor, action, release: canary.release.id, from: stack[0]?.release_id ?? null, detail: detail || fallback, facts, note: by.note },
    false,
  );
}
