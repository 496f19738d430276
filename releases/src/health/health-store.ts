import { FAILURE_CLASSES, type FailureClass, type Vital } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import { applyMigrations, CONSOLE_NOTIFY_FUNCTION, type Database, type Sql } from '@portico/platform/database';
import { addNetworkCounts, type CanaryNetworkCount } from '../canary/canary-counts';
import { noVisits, type HealthPoint, type HealthSeriesSource, type HealthSource, type ReleaseHealth } from '../release';
import { boundedOff, withBounds, type BoundedOff } from './counted-reports';
import { parseVitalKey, percentiles, type Histogram } from './vital-histogram';
import type { ReportCount } from './visit-report';

/** One count to add: `count` more of `key` for a section's release in the hour starting at `hour`. */
export interface HealthCount {
  hour: Date;
  section: SectionId;
  releaseId: string;
  key: string;
  count: number;
}

// How long health is kept (PORTICO_HEALTH_RETENTION_DAYS) is a setting: @portico/platform/settings.
export { DEFAULT_HEALTH_RETENTION_DAYS } from '@portico/platform/settings';

/**
 * The health schema, numbered apart from the releases' (a table of applied
 * steps and a lock of its own), so it never takes a step number another
 * part of the release schema wants. Never edit a step: add the next one.
 *
 * Aggregates only: what a visit adds is a count under a key, per hour,
 * section and release. Nothing in a row says who, from where or with what
 * browser: no address, user agent, nonce, token or identifier has a column.
 */
const HEALTH_STEPS: readonly string[] = [
  `
  CREATE TABLE release_health (
    section text NOT NULL,
    release_id text NOT NULL,
    -- The hour the reports arrived in (its start, UTC): the finest time kept.
    hour timestamptz NOT NULL,
    -- visits, arrival:<ssr|static|csr|failed>, failed:<class>, <vital>:<bucket> (releases/src/health/vital-histogram.ts)
    key text NOT NULL,
    count bigint NOT NULL CHECK (count > 0),
    PRIMARY KEY (section, release_id, hour, key)
  );
  -- For retention, which deletes by hour across every release.
  CREATE INDEX release_health_hour ON release_health (hour);
  `,
  `
  -- The visit ids counted, on every server: each counts once. An id is the
  -- random part of what the server issued for a page it served (no address,
  -- no user agent, nothing of the visitor), kept until the id expires.
  CREATE TABLE visit_ids (
    id bytea PRIMARY KEY,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX visit_ids_expiry ON visit_ids (expires_at);
  `,
  `
  -- Visits, said to the operator console (CONSOLE_CHANNEL) once per statement (a batch of reports), not per row.
  ${CONSOLE_NOTIFY_FUNCTION}
  CREATE TRIGGER console_health AFTER INSERT OR UPDATE ON release_health FOR EACH STATEMENT EXECUTE FUNCTION console_notify('health');
  `,
];

/** An arbitrary constant, not the messages' or the releases' one: the advisory lock of the health schema's migrations. */
const HEALTH_MIGRATION_LOCK = 7_140_031;

const HOUR_MS = 3_600_000;

/** The start of the hour `at` is in. */
export const hourOf = (at: Date | number) => new Date(Math.floor(new Date(at).getTime() / HOUR_MS) * HOUR_MS);

/** A report the beacon took, counted once its visit id is found unused on every server. */
export interface TakenReport {
  /** The visit id's random part (hex). */
  visit: string;
  expiresAt: Date;
  hour: Date;
  /** What it adds to release_health. */
  counts: readonly ReportCount[];
  /** What it adds to its canaries' per-network counts (none outside a canary). */
  canary: readonly Omit<CanaryNetworkCount, 'hour' | 'count'>[];
}

/** The same section, release, hour and key added up: one row each, as one upsert statement needs. */
function merged(batch: readonly HealthCount[]): HealthCount[] {
  const rows = new Map<string, HealthCount>();
  for (const count of batch) {
    if (!Number.isSafeInteger(count.count) || count.count <= 0) throw new Error(`a health count must be a positive whole number, got ${count.count}`);
    const hour = hourOf(count.hour);
    const id = JSON.stringify([count.section, count.releaseId, hour.getTime(), count.key]);
    const known = rows.get(id);
    if (known) known.count += count.count;
    else rows.set(id, { ...count, hour });
  }
  return [...rows.values()];
}

/**
 * Each release's health, as counts per hour in PostgreSQL (the messages'
 * database, embedded or a server): what the beacon endpoint of every server
 * adds, and what the control API and the canary decision read.
 */
export class HealthStore {
  private constructor(readonly db: Database) {}

  /** Opens the store on `db` (the database object the release store uses), bringing its schema up to date. */
  static async open(db: Database): Promise<HealthStore> {
    await applyMigrations(db, { table: 'portico_health_migrations', lock: HEALTH_MIGRATION_LOCK, steps: HEALTH_STEPS });
    return new HealthStore(db);
  }

  /**
   * Adds a batch of counts in one statement (one transaction). The rows go
   * in the primary key's order, so two servers adding to the same rows at
   * once wait for each other instead of deadlocking.
   */
  async record(batch: readonly HealthCount[]): Promise<void> {
    if (batch.length === 0) return;
    await this.db.transaction((sql) => addCounts(sql, batch));
  }

  /**
   * Counts a batch of reports, each once across every server: their visit
   * ids go into the shared record (`ON CONFLICT DO NOTHING RETURNING`), and
   * only the reports whose id went in now are added, to release_health and
   * to their canaries' per-network counts, in the same transaction (a batch
   * the database refuses leaves no id spent). Answers how many counted.
   */
  async recordReports(reports: readonly TakenReport[]): Promise<number> {
    // The same id twice in one batch (sent to this server twice): the first one.
    const byVisit = new Map<string, TakenReport>();
    for (const report of reports) if (!byVisit.has(report.visit)) byVisit.set(report.visit, report);
    if (byVisit.size === 0) return 0;
    return this.db.transaction(async (sql) => {
      const fresh = await sql.query<{ id: string }>(
        `INSERT INTO visit_ids (id, expires_at)
         SELECT decode(id, 'hex'), expires_at FROM jsonb_to_recordset($1::jsonb) AS t(id text, expires_at timestamptz) ORDER BY 1
         ON CONFLICT (id) DO NOTHING RETURNING encode(id, 'hex') AS id`,
        [JSON.stringify([...byVisit.values()].map((report) => ({ id: report.visit, expires_at: report.expiresAt.toISOString() })))],
      );
      const counted = fresh.map((row) => byVisit.get(row.id)!).filter(Boolean);
      await addCounts(
        sql,
        counted.flatMap((report) => report.counts.map((count) => ({ ...count, hour: report.hour, count: 1 }))),
      );
      await addNetworkCounts(
        sql,
        counted.flatMap((report) => report.canary.map((count) => ({ ...count, hour: report.hour, count: 1 }))),
      );
      return counted.length;
    });
  }

  /** Forgets the visit ids that have expired (no report can name them any more); answers how many. */
  async deleteExpiredVisits(now: Date = new Date()): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      'WITH gone AS (DELETE FROM visit_ids WHERE expires_at <= $1::timestamptz RETURNING 1) SELECT count(*)::integer AS n FROM gone',
      [now.toISOString()],
    );
    return rows[0]?.n ?? 0;
  }

  /** Whether the canaries' schema is there (the release store migrates it; a health store may be opened on a database without it). */
  private canarySchema = false;

  /** What the canaries' per-network bounds take off `releaseIds`' reports from the hour holding `since` on (none without the canaries' schema). */
  private async boundedOff(releaseIds: readonly string[], since: Date): Promise<BoundedOff> {
    if (!this.canarySchema) {
      const [found] = await this.db.query<{ kept: boolean }>("SELECT to_regclass('canary_bounded') IS NOT NULL AS kept");
      if (!found?.kept) return new Map();
      this.canarySchema = true;
    }
    return boundedOff(this.db, releaseIds, hourOf(since));
  }

  /** Every count of `releaseIds` in `section` from the hour holding `since` on, added up per release and key. */
  private async sums(section: SectionId, releaseIds: readonly string[], since: Date): Promise<Map<string, Map<string, number>>> {
    const sums = new Map<string, Map<string, number>>(releaseIds.map((id) => [id, new Map()]));
    if (releaseIds.length === 0) return sums;
    const rows = await this.db.query<{ release_id: string; key: string; count: string }>(
      `SELECT release_id, key, sum(count)::text AS count FROM release_health
       WHERE section = $1 AND release_id = ANY($2::text[]) AND hour >= $3::timestamptz
       GROUP BY release_id, key`,
      [section, [...releaseIds], hourOf(since).toISOString()],
    );
    for (const row of rows) sums.get(row.release_id)?.set(row.key, Number(row.count));
    return sums;
  }

  /**
   * The health of each of `releaseIds` in `section` over the hours from the
   * one holding `since` to now (hours are the finest time kept, so the hour
   * `since` falls in counts whole: compare releases over the same `since`).
   * A release with no reports has zero visits and null vitals.
   */
  health: HealthSource = async (section, releaseIds, since) => {
    const [sums, off] = [await this.sums(section, releaseIds, since), await this.boundedOff(releaseIds, since)];
    const answer: Record<string, ReleaseHealth> = {};
    for (const [id, counts] of sums) {
      // The hours a canary counted per network read as its judge counted them, the reports as received beside where they differ.
      const reported = healthOf(counts);
      const whole = new Map<string, number>();
      for (const ofHour of off.get(id)?.values() ?? []) for (const [key, count] of ofHour) whole.set(key, (whole.get(key) ?? 0) + count);
      const counted = healthOf(withBounds(counts, whole));
      const [figures, raw] = [judgedFigures(counted), judgedFigures(reported)];
      const same = JSON.stringify(figures) === JSON.stringify(raw);
      answer[id] = { ...reported, ...figures, ...(same ? {} : { raw }) };
    }
    return answer;
  };

  /**
   * The reports hour by hour, as they arrived: for each of `releaseIds`, its
   * hours with visits from the one holding `since` on, oldest first (the
   * console's charts). Not bounded as `health` is: a chart shows what pages
   * sent (on one machine, or before a canary has its networks, the judge
   * counts none of it, and a chart of nothing would say no visit came),
   * beside the figures that say what the judge counts.
   */
  series: HealthSeriesSource = async (section, releaseIds, since) => {
    const answer: Record<string, HealthPoint[]> = Object.fromEntries(releaseIds.map((id) => [id, []]));
    if (releaseIds.length === 0) return answer;
    const rows = await this.db.query<{ release_id: string; hour: Date | string; key: string; count: string }>(
      `SELECT release_id, hour, key, count::text AS count FROM release_health
       WHERE section = $1 AND release_id = ANY($2::text[]) AND hour >= $3::timestamptz
       ORDER BY release_id, hour`,
      [section, [...releaseIds], hourOf(since).toISOString()],
    );
    const hours = new Map<string, Map<string, Map<string, number>>>();
    for (const row of rows) {
      const hour = new Date(row.hour).toISOString();
      const ofRelease = hours.get(row.release_id) ?? new Map<string, Map<string, number>>();
      hours.set(row.release_id, ofRelease);
      const counts = ofRelease.get(hour) ?? new Map<string, number>();
      ofRelease.set(hour, counts);
      counts.set(row.key, Number(row.count));
    }
    for (const [id, ofRelease] of hours) {
      for (const [hour, counts] of ofRelease) {
        const { visits, failures, failureRate, lcpP75, inpP75, clsP75 } = healthOf(counts);
        if (visits > 0) answer[id]!.push({ hour, visits, failures, failureRate, lcpP75, inpP75, clsP75 });
      }
    }
    return answer;
  };

  /** Deletes the hours that started more than `days` days before `now`; answers how many rows went. */
  async deleteOlderThan(days: number, now: Date = new Date()): Promise<number> {
    if (!Number.isFinite(days) || days <= 0) throw new Error(`health is kept for a positive number of days, not ${days}`);
    const rows = await this.db.query<{ n: number }>(
      'WITH gone AS (DELETE FROM release_health WHERE hour < $1::timestamptz RETURNING 1) SELECT count(*)::integer AS n FROM gone',
      [new Date(now.getTime() - days * 24 * HOUR_MS).toISOString()],
    );
    return rows[0]?.n ?? 0;
  }
}

/** Adds counts to release_health in one statement, in the primary key's order. */
async function addCounts(sql: Sql, batch: readonly HealthCount[]): Promise<void> {
  const rows = merged(batch).map((row) => ({ section: row.section, release_id: row.releaseId, hour: row.hour.toISOString(), key: row.key, count: row.count }));
  if (rows.length === 0) return;
  await sql.query(
    `INSERT INTO release_health AS h (section, release_id, hour, key, count)
     SELECT section, release_id, hour, key, count
     FROM jsonb_to_recordset($1::jsonb) AS t(section text, release_id text, hour timestamptz, key text, count bigint)
     ORDER BY section, release_id, hour, key
     ON CONFLICT (section, release_id, hour, key) DO UPDATE SET count = h.count + excluded.count`,
    [JSON.stringify(rows)],
  );
}

/** The figures a canary's bounds change, of a health (failuresByClass and clsP75 stay the reports': no canary counts them per network). */
const judgedFigures = ({ visits, failures, failureRate, lcpP75, inpP75 }: ReleaseHealth) => ({ visits, failures, failureRate, lcpP75, inpP75 });

/** A release's health from its counts added up (over a window, or one hour). */
function healthOf(counts: ReadonlyMap<string, number>): ReleaseHealth {
  const visits = counts.get('visits') ?? 0;
  if (visits === 0) return noVisits();
  const failures = counts.get('arrival:failed') ?? 0;
  const failuresByClass: Partial<Record<FailureClass, number>> = {};
  for (const failure of FAILURE_CLASSES) {
    const count = counts.get(`failed:${failure}`);
    if (count) failuresByClass[failure] = count;
  }
  const p75 = (vital: Vital) => percentiles(vital, histogramOf(counts, vital), [0.75])[0]!;
  return { visits, failures, failureRate: failures / visits, failuresByClass, lcpP75: p75('lcp'), inpP75: p75('inp'), clsP75: p75('cls') };
}

/** The histogram of one vital out of a release's summed counts. */
function histogramOf(counts: ReadonlyMap<string, number>, vital: Vital): Histogram {
  const histogram = new Map<number, number>();
  for (const [key, count] of counts) {
    const parsed = parseVitalKey(key);
    if (parsed?.vital === vital) histogram.set(parsed.bucket, count);
  }
  return histogram;
}
