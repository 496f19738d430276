import { applyMigrations, type Database } from '@portico/messages';

/**
 * The canaries' schema: a plan of its own (its own table of applied steps and
 * its own lock) beside the releases' one, so that the canaries and the health
 * aggregates, built side by side, each number their steps without colliding.
 * Applied after the releases' plan, whose tables it refers to. A step is
 * never edited once released: change the schema by adding the next one.
 */
const STEPS: readonly string[] = [
  `
  -- At most one canary per section: the candidate, the share of visits it
  -- gets and the thresholds that decide it. The row goes when the canary
  -- ends (promoted, aborted, rolled back automatically, or overtaken by an
  -- activation); the audit log keeps what happened.
  CREATE TABLE release_canaries (
    section text PRIMARY KEY,
    release_id text NOT NULL REFERENCES releases (id),
    percent integer NOT NULL CHECK (percent BETWEEN 1 AND 99),
    min_visits integer NOT NULL CHECK (min_visits >= 1),
    max_failure_delta double precision NOT NULL CHECK (max_failure_delta BETWEEN 0 AND 1),
    max_slowdown double precision NOT NULL CHECK (max_slowdown >= 0),
    promote_after_visits integer CHECK (promote_after_visits >= min_visits),
    started_at timestamptz NOT NULL DEFAULT now(),
    started_by text NOT NULL
  );
  `,
];

/** An arbitrary constant, neither the messages' nor the releases': the advisory lock that lets one process at a time migrate the canaries' schema. */
const CANARY_MIGRATION_LOCK = 7_140_031;

export function migrateCanaries(db: Database): Promise<void> {
  return applyMigrations(db, { table: 'portico_canary_migrations', lock: CANARY_MIGRATION_LOCK, steps: STEPS });
}
