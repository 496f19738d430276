import { CONSOLE_CHANNEL, type Database, type Listening } from '@portico/platform/database';
import { isSection } from '../scopes';
import { CONSOLE_EVENT_KINDS, type ConsoleEvent } from '@portico/control-contract';

/** How often the hub reads the database's state besides listening: the bound on a notification lost (a connection dropped). */
const EVENTS_POLL_MS = 2000;

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

/** A part of what the console shows as one read sees it: its kind, its section (null: of no section), and a text that changes with it. */
interface Print {
  /** A canary is its section's `sections` kind, read apart. */
  kind: ConsoleEvent['kind'] | 'canaries';
  section: string | null;
  print: string;
}

/**
 * What each kind looks like now, section by section, in one read: when a
 * part's text differs from the last read, something of it changed that no
 * notification told (a lost one), and it is said with its section, so a
 * section token hears of its sections alone. A part of no section (a
 * server coming or going, an entry of no section) is an integrator's.
 */
const FINGERPRINTS = `
  SELECT 'sections' AS kind, section, generation::text AS print FROM release_sections
  UNION ALL SELECT 'canaries', section, release_id FROM release_canaries
  UNION ALL SELECT 'releases', section, max(n)::text || '/' || count(broken_at)::text FROM releases GROUP BY section
  UNION ALL SELECT 'audit', section, max(seq)::text FROM release_audit GROUP BY section
  UNION ALL SELECT 'tokens', NULL, count(*)::text FROM release_tokens WHERE revoked_at IS NULL
  UNION ALL SELECT 'servers', NULL, coalesce(string_agg(id, ',' ORDER BY id), '') FROM console_servers
  UNION ALL SELECT 'servers', r.section, string_agg(s.id || ':' || r.id, ',' ORDER BY s.id, r.id)
    FROM console_servers s CROSS JOIN unnest(s.releases) AS served (id) JOIN releases r ON r.id = served.id GROUP BY r.section
  UNION ALL SELECT 'alerts', NULL, (SELECT count(*)::text || '/' || count(delivered_at)::text FROM console_alerts) || '/' || (SELECT coalesce(max(coalesce(webhook_url, '') || coalesce(email, '') || coalesce(failure_rate_threshold::text, '')), '') FROM console_alert_settings)`;
const HEALTH_FINGERPRINT = `SELECT 'health' AS kind, section, sum(count)::text AS print FROM release_health WHERE hour >= date_trunc('hour', now()) AND key = 'visits' GROUP BY section`;
const MESSAGE_FINGERPRINT = `SELECT 'messages' AS kind, NULL AS section, (SELECT count(*)::text || '/' || coalesce(max(received_at)::text, '') FROM contact_messages) || '/' || (SELECT coalesce(sum(attempts), 0)::text FROM contact_outbox) AS print`;

/** The events that tell what changed between two reads: each part that came, went or changed, once. */
function changes(before: ReadonlyMap<string, Print>, now: ReadonlyMap<string, Print>): ConsoleEvent[] {
  const changed = new Map<string, ConsoleEvent>();
  for (const key of new Set([...before.keys(), ...now.keys()])) {
    const part = now.get(key) ?? before.get(key)!;
    if (before.get(key)?.print === now.get(key)?.print) continue;
    const kind = part.kind === 'canaries' ? 'sections' : part.kind;
    const event: ConsoleEvent = isSection(part.section) ? { kind, section: part.section } : { kind };
    changed.set(JSON.stringify(event), event);
  }
  return [...changed.values()];
}

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
  const read = async (): Promise<Map<string, Print> | undefined> => {
    try {
      const rows = await db.query<Print>(FINGERPRINTS);
      const messages = options.withMessages ? await db.query<Print>(MESSAGE_FINGERPRINT) : [];
      // The health's table is another store's (HealthStore), which a control API may run without.
      const health = await db.query<Print>(HEALTH_FINGERPRINT).catch(() => []);
      return new Map([...rows, ...messages, ...health].map((part) => [`${part.kind}/${part.section ?? ''}`, part]));
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
      if (now && known) for (const event of changes(known, now)) emit(event);
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
