import type { Database } from './database';

/**
 * The schema, as numbered steps applied once each and in order, on the
 * embedded database and on a server alike. A step is never edited once
 * released: change the schema by adding the next one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE contact_messages (
    id uuid PRIMARY KEY,
    idempotency_key text NOT NULL UNIQUE,
    -- sha256 of the stored fields, to tell a retry of the same message from a different one
    body_hash text NOT NULL,
    name text NOT NULL,
    telephone text NOT NULL,
    message text NOT NULL,
    language text NOT NULL CHECK (language IN ('en', 'id')),
    received_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX contact_messages_received_at ON contact_messages (received_at);

  -- One row per message, written in the message's transaction; the deliverer
  -- claims due rows. A claimed row's next_attempt_at is pushed a lease ahead,
  -- so a process that dies mid-delivery leaves it due again after the lease.
  CREATE TABLE contact_outbox (
    message_id uuid PRIMARY KEY REFERENCES contact_messages (id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    channels_done text[] NOT NULL DEFAULT '{}',
    last_error text,
    delivered_at timestamptz
  );
  CREATE INDEX contact_outbox_due ON contact_outbox (next_attempt_at) WHERE status = 'queued';

  -- Accepted messages per client address, kept for the rate limit's window only.
  CREATE TABLE contact_rate_hits (
    client_address text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX contact_rate_hits_address_at ON contact_rate_hits (client_address, at);
  `,
  `
  -- Who read, exported or deleted which messages (personal data): the
  -- token's name through the control API, local:<OS user> straight on the
  -- database. Ids only, never a message's text; kept when the message goes.
  CREATE TABLE contact_message_audit (
    seq bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor text NOT NULL,
    action text NOT NULL CHECK (action IN ('message-read', 'message-export', 'message-delete')),
    message_ids text[] NOT NULL,
    detail text NOT NULL DEFAULT ''
  );
  `,
];

/**
 * One package's numbered schema steps, kept in a table of its own so that
 * packages sharing the database number theirs independently.
 */
export interface MigrationPlan {
  /** The table that records which steps ran (created when missing). */
  table: string;
  /** The advisory lock that lets one process at a time apply this plan: a constant of the package's own. */
  lock: number;
  /** The steps, in order; step n (from 1) is `steps[n - 1]`. */
  steps: readonly string[];
}

/** An arbitrary constant: the advisory lock that lets one process at a time migrate the messages' schema. */
const MIGRATION_LOCK = 7_140_014;

/** Applies the steps of `plan` not yet applied, in one transaction; safe when several servers start at once. */
export async function applyMigrations(db: Database, plan: MigrationPlan): Promise<void> {
  // The table name goes into SQL as an identifier, which takes no parameter.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(plan.table)) throw new Error(`${JSON.stringify(plan.table)} is not a table name`);
  await db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [plan.lock]);
    await sql.query(`CREATE TABLE IF NOT EXISTS ${plan.table} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const [row] = await sql.query<{ version: number }>(`SELECT coalesce(max(version), 0) AS version FROM ${plan.table}`);
    for (let version = (row?.version ?? 0) + 1; version <= plan.steps.length; version++) {
      await sql.exec(plan.steps[version - 1]!);
      await sql.query(`INSERT INTO ${plan.table} (version) VALUES ($1)`, [version]);
    }
  });
}

/** Brings the messages' schema up to date (the table and lock databases made before applyMigrations already use). */
export function migrate(db: Database): Promise<void> {
  return applyMigrations(db, { table: 'portico_migrations', lock: MIGRATION_LOCK, steps: MIGRATIONS });
}
