import { applyMigrations, CONSOLE_NOTIFY_FUNCTION, type Database } from '@portico/platform/database';

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
  `
  -- The inbox's pages, newest first (the listing's order): read from the index, not sorted.
  CREATE INDEX contact_messages_newest ON contact_messages (received_at DESC, id);

  -- What the operator console shows of the messages, said on CONSOLE_CHANNEL (@portico/platform/database).
  ${CONSOLE_NOTIFY_FUNCTION}
  CREATE TRIGGER console_messages AFTER INSERT OR DELETE ON contact_messages FOR EACH STATEMENT EXECUTE FUNCTION console_notify('messages');
  CREATE TRIGGER console_deliveries AFTER UPDATE ON contact_outbox FOR EACH STATEMENT EXECUTE FUNCTION console_notify('messages');
  CREATE TRIGGER console_message_audit AFTER INSERT ON contact_message_audit FOR EACH STATEMENT EXECUTE FUNCTION console_notify('audit');
  `,
  `
  -- The request that stored a message, or read, exported or deleted some (its
  -- X-Request-Id, issue 51): where to look in the log. Null when none did
  -- (a message stored before, a command on the database).
  ALTER TABLE contact_messages ADD COLUMN request_id text;
  ALTER TABLE contact_message_audit ADD COLUMN request_id text;
  `,
];

/** An arbitrary constant: the advisory lock that lets one process at a time migrate the messages' schema. */
const MIGRATION_LOCK = 7_140_014;

/** Brings the messages' schema up to date (the table and lock databases made before applyMigrations already use). */
export function migrate(db: Database): Promise<void> {
  return applyMigrations(db, { table: 'portico_migrations', lock: MIGRATION_LOCK, steps: MIGRATIONS });
}
