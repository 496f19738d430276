import { applyMigrations, type Database } from '@portico/platform/database';

/**
 * The releases' schema, numbered apart from the messages' (their own table
 * of applied steps and their own lock), in the database they share. A step is
 * never edited once released: change the schema by adding the next one.
 */
const STEPS: readonly string[] = [
  `
  CREATE TABLE releases (
    -- Global, so ids are never reused, even across sections.
    n bigserial PRIMARY KEY,
    section text NOT NULL,
    id text GENERATED ALWAYS AS (section || '-' || n::text) STORED UNIQUE,
    manifest_url text NOT NULL,
    integrity text NOT NULL,
    version text NOT NULL,
    build_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    created_by text NOT NULL,
    note text,
    checks jsonb NOT NULL DEFAULT '[]',
    broken_at timestamptz,
    broken_detail text,
    -- The same URL with the same bytes is the same release.
    UNIQUE (section, manifest_url, integrity)
  );

  -- One row per section that ever had a release active: the row an
  -- activation locks (so one section's changes happen one at a time, on
  -- every server), what it changed last, and a counter the watchers poll.
  CREATE TABLE release_sections (
    section text PRIMARY KEY,
    generation bigint NOT NULL DEFAULT 0,
    changed_at timestamptz,
    changed_by text
  );

  -- The activation history of each section, as a stack: the live rows
  -- (popped_at null), newest on top, are what rollbacks go back through.
  CREATE TABLE release_activations (
    seq bigserial PRIMARY KEY,
    section text NOT NULL,
    release_id text NOT NULL REFERENCES releases (id),
    at timestamptz NOT NULL DEFAULT now(),
    actor text NOT NULL,
    popped_at timestamptz
  );
  CREATE INDEX release_activations_stack ON release_activations (section, seq) WHERE popped_at IS NULL;

  CREATE TABLE release_tokens (
    id bigserial PRIMARY KEY,
    name text NOT NULL,
    scopes text[] NOT NULL,
    -- sha256 of the token, hex: the token itself is shown once and never stored.
    hash text NOT NULL UNIQUE,
    owner boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    created_by text NOT NULL,
    revoked_at timestamptz
  );
  -- A name is taken while its token lives; once revoked it may name a new one.
  CREATE UNIQUE INDEX release_tokens_live_name ON release_tokens (name) WHERE revoked_at IS NULL;
  CREATE UNIQUE INDEX release_tokens_live_owner ON release_tokens (owner) WHERE revoked_at IS NULL AND owner;

  CREATE TABLE release_audit (
    seq bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor text NOT NULL,
    action text NOT NULL,
    section text,
    release text,
    from_release text,
    detail text NOT NULL DEFAULT ''
  );
  CREATE INDEX release_audit_section ON release_audit (section, seq);

  -- Values every server on the database shares (the preview-signing secret).
  CREATE TABLE release_settings (
    name text PRIMARY KEY,
    value text NOT NULL
  );
  `,
  `
  -- The integrator's grant of script in the visitor's browser (issue 46):
  -- null until set, when the section has config.json's or its built-in one.
  -- On the row every change of a section locks, so a grant is changed,
  -- audited and announced as an activation is.
  ALTER TABLE release_sections ADD COLUMN interactive boolean;
  `,
  `
  -- Sections as data (issue 48): the section's entry on the row its changes
  -- lock. A built-in section's row may be missing or hold nulls: null labels
  -- are its built-in ones. A row of another id is a section an integrator
  -- added (added_at set); retired, it stays (its id is never reused, its
  -- releases and audit stay), with when and by whom. The tab order is one
  -- list beside (release_settings 'section-order').
  ALTER TABLE release_sections
    ADD COLUMN label_en text,
    ADD COLUMN label_id text,
    ADD COLUMN origins text[] NOT NULL DEFAULT '{}',
    ADD COLUMN markets text[] NOT NULL DEFAULT '{IN,ID}',
    ADD COLUMN hidden boolean NOT NULL DEFAULT false,
    ADD COLUMN added_at timestamptz,
    ADD COLUMN added_by text,
    ADD COLUMN retired_at timestamptz,
    ADD COLUMN retired_by text;
  `,
  `
  -- A section's release policy (issue 49): how far its own token may take a
  -- release alone (release-policy.ts). Null: 'activate', everything on its
  -- own section, as before the policy existed.
  ALTER TABLE release_sections ADD COLUMN policy text CHECK (policy IN ('publish', 'canary', 'activate'));
  `,
  `
  -- An audit entry's facts (issue 49): what the server composed its detail
  -- from (control-shapes.ts, auditFactsSchema), so a console words them in
  -- its reader's language; and the note a person typed, kept apart as typed.
  -- Null on entries written before: their detail is all there is.
  ALTER TABLE release_audit ADD COLUMN facts jsonb, ADD COLUMN note text;
  `,
  `
  -- The control API request that caused an entry (its X-Request-Id, issue
  -- 51), to find its lines in the log; null for a scheduled job's entry.
  ALTER TABLE release_audit ADD COLUMN request_id text;
  `,
];

/** An arbitrary constant, not the messages' one: the advisory lock that lets one process at a time migrate the releases' schema. */
const RELEASE_MIGRATION_LOCK = 7_140_023;

export function migrateReleases(db: Database): Promise<void> {
  return applyMigrations(db, { table: 'portico_release_migrations', lock: RELEASE_MIGRATION_LOCK, steps: STEPS });
}
