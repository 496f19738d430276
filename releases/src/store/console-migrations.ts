import { applyMigrations, CONSOLE_NOTIFY_FUNCTION, type Database } from '@portico/platform/database';

/**
 * The operator console's schema (docs/console.md): a plan of its own beside
 * the releases' and the canaries', applied after them. A step is never
 * edited once released: change the schema by adding the next one.
 */
const STEPS: readonly string[] = [
  `
  -- A console session: only hashes of its id (the cookie) and of its
  -- anti-forgery value are kept, so a copy of the table opens nothing. The
  -- token it was opened with is kept as its sha256 (as release_tokens keeps
  -- it): revoking the token ends its sessions.
  CREATE TABLE console_sessions (
    id_hash text PRIMARY KEY,
    csrf_hash text NOT NULL,
    token_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);

  -- Each server on the database, from its heartbeat.
  CREATE TABLE console_servers (
    id text PRIMARY KEY,
    host text NOT NULL,
    port integer NOT NULL,
    pid integer NOT NULL,
    started_at timestamptz NOT NULL,
    releases text[] NOT NULL DEFAULT '{}',
    last_seen_at timestamptz NOT NULL DEFAULT now()
  );

  -- Where alerts go: one row.
  CREATE TABLE console_alert_settings (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    webhook_url text,
    email text,
    failure_rate_threshold double precision
  );

  -- The alerts' outbox: an event's id is its key, so the servers that all
  -- see an event queue it once; each is sent by one server at a time.
  CREATE TABLE console_alerts (
    event_id text PRIMARY KEY,
    kind text NOT NULL,
    section text,
    release text,
    detail text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    attempts integer NOT NULL DEFAULT 0,
    -- The channels (webhook, mail) that took it: a retry sends only to the others.
    channels_done text[] NOT NULL DEFAULT '{}',
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error text,
    delivered_at timestamptz
  );
  CREATE INDEX console_alerts_due ON console_alerts (next_attempt_at) WHERE delivered_at IS NULL;

  -- The audit's pages (newest first, a cursor of at and seq) and filters.
  CREATE INDEX release_audit_page ON release_audit (at DESC, seq DESC);
  CREATE INDEX release_audit_actor ON release_audit (actor, at DESC);
  CREATE INDEX release_audit_action ON release_audit (action, at DESC);

  -- What the console shows, said on CONSOLE_CHANNEL whoever changes it.
  ${CONSOLE_NOTIFY_FUNCTION}
  CREATE TRIGGER console_releases AFTER INSERT OR UPDATE OR DELETE ON releases FOR EACH ROW EXECUTE FUNCTION console_notify('releases', 'section');
  CREATE TRIGGER console_sections AFTER INSERT OR UPDATE OR DELETE ON release_sections FOR EACH ROW EXECUTE FUNCTION console_notify('sections', 'section');
  CREATE TRIGGER console_canaries AFTER INSERT OR UPDATE OR DELETE ON release_canaries FOR EACH ROW EXECUTE FUNCTION console_notify('sections', 'section');
  CREATE TRIGGER console_audit AFTER INSERT ON release_audit FOR EACH ROW EXECUTE FUNCTION console_notify('audit', 'section');
  CREATE TRIGGER console_tokens AFTER INSERT OR UPDATE ON release_tokens FOR EACH STATEMENT EXECUTE FUNCTION console_notify('tokens');
  -- A server's heartbeat says something only when what it serves changes, or it comes or goes.
  CREATE TRIGGER console_servers_come_go AFTER INSERT OR DELETE ON console_servers FOR EACH STATEMENT EXECUTE FUNCTION console_notify('servers');
  CREATE TRIGGER console_servers_serve AFTER UPDATE ON console_servers FOR EACH ROW WHEN (OLD.releases IS DISTINCT FROM NEW.releases) EXECUTE FUNCTION console_notify('servers');
  CREATE TRIGGER console_alert_settings AFTER INSERT OR UPDATE ON console_alert_settings FOR EACH STATEMENT EXECUTE FUNCTION console_notify('alerts');
  -- An audited event an operator wants to hear of is queued as an alert in
  -- its own transaction, keyed by its audit entry: once, whichever server
  -- (or command) made it; nothing is queued while no alert has a destination.
  CREATE FUNCTION console_alert_from_audit() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM console_alert_settings WHERE webhook_url IS NOT NULL OR email IS NOT NULL) THEN RETURN NULL; END IF;
    INSERT INTO console_alerts (event_id, kind, section, release, detail)
    VALUES ('audit-' || NEW.seq, CASE WHEN NEW.action IN ('promote', 'abort') THEN 'canary-decided' ELSE NEW.action END, NEW.section, NEW.release, NEW.action || ' by ' || NEW.actor || CASE WHEN NEW.detail = '' THEN '' ELSE ': ' || NEW.detail END)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $fn$;
  CREATE TRIGGER console_alert_audit AFTER INSERT ON release_audit FOR EACH ROW WHEN (NEW.action IN ('auto-rollback', 'promote', 'abort', 'broken', 'set-aside')) EXECUTE FUNCTION console_alert_from_audit();
  CREATE TRIGGER console_alerts AFTER INSERT OR UPDATE ON console_alerts FOR EACH STATEMENT EXECUTE FUNCTION console_notify('alerts');
  `,
  `
  -- A person's abort is said as such ("canary-aborted"), not as a decision
  -- ("canary-decided" stays a promotion's, by the judge or a person; the
  -- judge's own abort is "auto-rollback"), issue 49.
  CREATE OR REPLACE FUNCTION console_alert_from_audit() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM console_alert_settings WHERE webhook_url IS NOT NULL OR email IS NOT NULL) THEN RETURN NULL; END IF;
    INSERT INTO console_alerts (event_id, kind, section, release, detail)
    VALUES ('audit-' || NEW.seq, CASE NEW.action WHEN 'promote' THEN 'canary-decided' WHEN 'abort' THEN 'canary-aborted' ELSE NEW.action END, NEW.section, NEW.release, NEW.action || ' by ' || NEW.actor || CASE WHEN NEW.detail = '' THEN '' ELSE ': ' || NEW.detail END)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $fn$;
  `,
];

/** The advisory lock that lets one process at a time migrate the console's schema. */
const CONSOLE_MIGRATION_LOCK = 7_140_036;

export function migrateConsole(db: Database): Promise<void> {
  return applyMigrations(db, { table: 'portico_console_migrations', lock: CONSOLE_MIGRATION_LOCK, steps: STEPS });
}
