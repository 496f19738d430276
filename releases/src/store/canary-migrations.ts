import { applyMigrations, type Database } from '@portico/platform/database';

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
  `
  -- A canary's number, never reused: its visit ids name it, and what is
  -- counted for it is keyed by it, so a canary started again (even of the
  -- same release, in the same hour) starts from nothing.
  ALTER TABLE release_canaries ADD COLUMN id bigserial UNIQUE;
  ALTER TABLE release_canaries ADD COLUMN min_networks integer NOT NULL DEFAULT 5 CHECK (min_networks >= 1);
  ALTER TABLE release_canaries ADD COLUMN max_network_share double precision NOT NULL DEFAULT 0.2 CHECK (max_network_share > 0 AND max_network_share <= 1);

  -- The judge's inputs: each counted report for the canary's two releases,
  -- per client network, kept only under a keyed hash of the network (a key
  -- derived from the database's secret and the canary's number and start,
  -- so it changes with every canary) and only while the canary runs: its
  -- rows go with it (ON DELETE CASCADE), and retention deletes old hours.
  -- key: visits, failures, lcp:<bucket>, inp:<bucket>.
  CREATE TABLE canary_network_counts (
    canary_id bigint NOT NULL REFERENCES release_canaries (id) ON DELETE CASCADE,
    network bytea NOT NULL,
    release_id text NOT NULL,
    hour timestamptz NOT NULL,
    key text NOT NULL,
    count bigint NOT NULL CHECK (count > 0),
    PRIMARY KEY (canary_id, network, release_id, hour, key)
  );
  CREATE INDEX canary_network_counts_hour ON canary_network_counts (hour);

  -- What the servers saw themselves, for the canary's two releases, trusted
  -- (no visitor sends them): render-failed, set-aside, contact-5xx.
  CREATE TABLE canary_signals (
    canary_id bigint NOT NULL REFERENCES release_canaries (id) ON DELETE CASCADE,
    release_id text NOT NULL,
    key text NOT NULL,
    count bigint NOT NULL CHECK (count > 0),
    PRIMARY KEY (canary_id, release_id, key)
  );

  -- A release whose node build a server's supervisor gave up on (its
  -- workers died again and again): rendered in the browser only there.
  -- Cleared when a server runs it again.
  CREATE TABLE release_set_aside (
    release_id text PRIMARY KEY REFERENCES releases (id),
    at timestamptz NOT NULL DEFAULT now(),
    detail text NOT NULL
  );
  `,
  `
  -- What a canary's judge left out of its releases' reports, kept after it
  -- ends for as long as the reports of those hours are (the same retention
  -- deletes both): the health read takes it off, so the reports a judge
  -- bounded read as it counted them after the canary too (issue 45: forged
  -- reports stayed in what operators saw for 30 days). Per release, hour
  -- and release_health key, the sum over the canary's networks of
  -- (min(visits, cap) / visits - 1) x count, written as the canary ends,
  -- when its per-network rows go: no network, not even its keyed hash, is
  -- kept past the canary.
  CREATE TABLE canary_bounded (
    canary_id bigint NOT NULL,
    release_id text NOT NULL,
    hour timestamptz NOT NULL,
    key text NOT NULL,
    count double precision NOT NULL CHECK (count < 0),
    PRIMARY KEY (canary_id, release_id, hour, key)
  );
  CREATE INDEX canary_bounded_release ON canary_bounded (release_id, hour);
  CREATE INDEX canary_bounded_hour ON canary_bounded (hour);
  `,
];

/** An arbitrary constant, neither the messages' nor the releases': the advisory lock that lets one process at a time migrate the canaries' schema. */
const CANARY_MIGRATION_LOCK = 7_140_031;

export function migrateCanaries(db: Database): Promise<void> {
  return applyMigrations(db, { table: 'portico_canary_migrations', lock: CANARY_MIGRATION_LOCK, steps: STEPS });
}
