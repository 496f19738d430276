import { CONSOLE_CHANNEL, type Database, type Listening } from '@portico/platform/database';
import { isSection } from '../scopes';
import { CONSOLE_EVENT_KINDS, type ConsoleEvent } from './control-contract';

/** How often the hub reads the database's state besides listening: the bound on a notification lost (a connection dropped). */
export const EVENTS_POLL_MS = 2000;

/** The live changes every console of this server hears (`GET /api/events`). */
export interface ConsoleEvents {
  subscribe(onEvent: (event: ConsoleEvent) => void): () => void;
  close(): Promise<void>;
}

const isKind = (kind: unknown): kind is ConsoleEvent['kind'] => (CONSOLE_EVENT_KINDS as readonly unknown[]).includes(kind);

/** A notification's payload as an event, or undefined when it is not one. */
function eventOf(payload: string): ConsoleEvent | undefined {
  try {
    const { kind, section } = JSON.parse(payload) as { kind?: unknown; section?: unknown };
    if (!isKind(kind)) return undefined;
    return isSection(section) ? { kind, section } : { kind };
  } catch {
    return undefined;
  }
}

/**
 * What each kind looks like now, in one read: when a kind's text differs
 * from the last read, something of it changed that no notification told
 * (a lost one). The messages' tables may be absent (a store without them).
 */
const FINGERPRINTS = `SELECT
  (SELECT coalesce(sum(generation), 0)::text FROM release_sections) || '/' || (SELECT coalesce(string_agg(section || release_id, ',' ORDER BY section), '') FROM release_canaries) AS sections,
  (SELECT coalesce(max(n), 0)::text || '/' || count(broken_at)::text FROM releases) AS releases,
  (SELECT coalesce(max(seq), 0)::text FROM release_audit) AS audit,
  (SELECT count(*)::text FROM release_tokens WHERE revoked_at IS NULL) AS tokens,
  (SELECT coalesce(string_agg(id || ':' || array_to_string(releases, ','), ';' ORDER BY id), '') FROM console_servers) AS servers,
  (SELECT count(*)::text || '/' || count(delivered_at)::text FROM console_alerts) || '/' || (SELECT coalesce(max(coalesce(webhook_url, '') || coalesce(email, '') || coalesce(failure_rate_threshold::text, '')), '') FROM console_alert_settings) AS alerts`;
const HEALTH_FINGERPRINT = `SELECT coalesce(sum(count), 0)::text AS health FROM release_health WHERE hour >= date_trunc('hour', now()) AND key = 'visits'`;
const MESSAGE_FINGERPRINT = `SELECT (SELECT count(*)::text || '/' || coalesce(max(received_at)::text, '') FROM contact_messages) || '/' || (SELECT coalesce(sum(attempts), 0)::text FROM contact_outbox) AS messages`;

/**
 * Listens on CONSOLE_CHANNEL (the triggers of every table the console
 * shows say what changed, whoever changed it) and reads the state every
 * EVENTS_POLL_MS to catch what a lost notification missed; a lost
 * listening connection is listened again at the next read.
 */
export async function startConsoleEvents(db: Database, options: { pollMs?: number; withMessages: boolean }): Promise<ConsoleEvents> {
  const subscribers = new Set<(event: ConsoleEvent) => void>();
  const emit = (event: ConsoleEvent) => {
    for (const subscriber of subscribers) subscriber(event);
  };
  let listening: Listening | undefined;
  let closed = false;
  const listen = async () => {
    if (closed || listening?.alive) return;
    await listening?.close().catch(() => undefined);
    listening = await db
      .listen(CONSOLE_CHANNEL, (payload) => {
        const event = eventOf(payload);
        if (event) emit(event);
      })
      .catch(() => undefined);
  };
  const read = async (): Promise<Record<string, string> | undefined> => {
    try {
      const [row] = await db.query<Record<string, string>>(FINGERPRINTS);
      const [messages] = options.withMessages ? await db.query<{ messages: string }>(MESSAGE_FINGERPRINT) : [];
      // The health's table is another store's (HealthStore), which a control API may run without.
      const [health] = await db.query<{ health: string }>(HEALTH_FINGERPRINT).catch(() => []);
      return { ...row, ...(messages ?? {}), ...(health ?? {}) };
    } catch {
      return undefined;
    }
  };
  let known = await read();
  await listen();
  let polling = false;
  const timer = setInterval(() => {
    if (polling || closed) return;
    polling = true;
    void (async () => {
      await listen();
      const now = await read();
      if (now && known) for (const kind of CONSOLE_EVENT_KINDS) if (now[kind] !== known[kind]) emit({ kind });
      known = now ?? known;
    })().finally(() => (polling = false));
  }, options.pollMs ?? EVENTS_POLL_MS);
  timer.unref();
  return {
    subscribe(onEvent) {
      subscribers.add(onEvent);
      return () => subscribers.delete(onEvent);
    },
    async close() {
      closed = true;
      clearInterval(timer);
      subscribers.clear();
      await listening?.close().catch(() => undefined);
    },
  };
}
