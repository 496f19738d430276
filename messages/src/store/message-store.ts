import { createHash, randomUUID } from 'node:crypto';
import type { ContactMessage, MessageLanguage } from '../contact-message';
import { AUDIT_CURSOR_COLUMNS, auditPageSql, type AuditFilter, type Database, type Sql } from '@portico/platform/database';
import { currentRequestId } from '@portico/platform/http';
import type { MESSAGE_ACCESS_ACTIONS } from '@portico/control-contract';
import { migrate } from './migrations';
import { rateLimited, recordHit, type RateLimit } from './rate-limit';

export type { RateLimit } from './rate-limit';

export type SubmitOutcome =
  | { kind: 'stored'; id: string }
  /** The same key and the same fields again: the message is already stored. */
  | { kind: 'repeated'; id: string }
  /** The same key with other fields: a different message reusing a key. */
  | { kind: 'conflict' }
  | { kind: 'rate-limited'; retryAfterSeconds: number };

type DeliveryStatus = 'queued' | 'delivered' | 'failed';

export interface StoredMessage {
  id: string;
  receivedAt: Date;
  name: string;
  telephone: string;
  message: string;
  language: MessageLanguage;
  idempotencyKey: string;
  /** The request that stored it (its X-Request-Id), null when stored before request ids; absent where the control API's answer leaves it out. */
  requestId?: string | null;
  delivery: { status: DeliveryStatus; attempts: number; lastError: string | null; deliveredAt: Date | null };
}

/** What an operator did with messages, as the audit log says it. */
export type MessageAccessAction = (typeof MESSAGE_ACCESS_ACTIONS)[number];

/** One entry of the messages' audit log: who, what, which messages (ids only), when. */
export interface MessageAccessEntry {
  at: string;
  /** `at` in microseconds since the epoch, and the entry's number: its place for a page's cursor. */
  atMicros: string;
  seq: string;
  actor: string;
  action: MessageAccessAction;
  ids: string[];
  /** What was done, in words, with the ids. */
  detail: string;
  /** The control API request that did it, null for a command on the database. */
  requestId: string | null;
}

/** An operator's reads and deletions, each audited under the operator's name in the same transaction. */
/** Which messages a listing holds, newest first. */
export interface MessageQuery {
  /** Received at or after. */
  since?: Date;
  /** Words each found in the name, the telephone or the text, any case. */
  q?: string;
  /** At most this many (a page). */
  limit?: number;
  /** The messages older than this one (the last id of the page before). */
  before?: string;
}

export interface OperatorMessages {
  /** Newest first, as `options` say; `export` names the format when the list is for an export. */
  list(options: MessageQuery & { export?: 'csv' | 'json' }): Promise<StoredMessage[]>;
  get(id: string): Promise<StoredMessage | undefined>;
  /** Deletes one message (and its delivery record); false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** A message claimed for delivery, with the channels that already took it. */
export interface ClaimedDelivery {
  message: StoredMessage;
  /** This attempt's number, from 1. */
  attempt: number;
  channelsDone: string[];
}

interface MessageRow {
  id: string;
  received_at: Date;
  name: string;
  telephone: string;
  message: string;
  language: MessageLanguage;
  idempotency_key: string;
  request_id: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  delivered_at: Date | null;
}

const MESSAGE_COLUMNS = `m.id, m.received_at, m.name, m.telephone, m.message, m.language, m.idempotency_key, m.request_id,
  o.status, o.attempts, o.last_error, o.delivered_at`;

function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    receivedAt: new Date(row.received_at),
    name: row.name,
    telephone: row.telephone,
    message: row.message,
    language: row.language,
    idempotencyKey: row.idempotency_key,
    requestId: row.request_id,
    delivery: {
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at),
    },
  };
}

/** What tells a retry of one message from another message under the same key. */
function bodyHash(message: ContactMessage): string {
  const fields = [message.name, message.telephone, message.message, message.language];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Contact messages in PostgreSQL: storing one queues its delivery in the same
 * transaction, so a stored message is never left undelivered and a message is
 * never delivered without being stored.
 */
export class MessageStore {
  private constructor(readonly db: Database) {}

  /** Opens the store on `db`, bringing its schema up to date. */
  static async open(db: Database): Promise<MessageStore> {
    await migrate(db);
    return new MessageStore(db);
  }

  /**
   * Stores a message and queues its delivery, unless its key was seen before
   * (answered first, so a retry is never refused by the rate limit) or the
   * address is over `rateLimit`. `requestId` is kept with it: the request's
   * X-Request-Id, which its log lines carry.
   */
  async submit(message: ContactMessage, options: { address: string; block?: string; rateLimit?: RateLimit; requestId?: string }): Promise<SubmitOutcome> {
    const hash = bodyHash(message);
    const { rateLimit } = options;
    const insert = async (sql: Sql): Promise<SubmitOutcome> => {
      const [inserted] = await sql.query<{ id: string }>(
        `WITH message AS (
           INSERT INTO contact_messages (id, idempotency_key, body_hash, name, telephone, message, language, request_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (idempotency_key) DO NOTHING
           RETURNING id
         ), queued AS (
           INSERT INTO contact_outbox (message_id) SELECT id FROM message
         )
         SELECT id FROM message`,
        [randomUUID(), message.idempotencyKey, hash, message.name, message.telephone, message.message, message.language, options.requestId ?? null],
      );
      if (inserted) return { kind: 'stored', id: inserted.id };
      // The key was stored before, or by a request that committed first (ON CONFLICT waited for it).
      const earlier = await this.findByKey(sql, message.idempotencyKey, hash);
      if (earlier) return earlier;
      throw new Error(`the message under key ${message.idempotencyKey} vanished while being stored`);
    };

    // Without a rate limit, one statement stores the message and its outbox
    // row: atomic on its own, and one round trip.
    if (!rateLimit) return insert(this.db);
    return this.db.transaction(async (sql) => {
      const earlier = await this.findByKey(sql, message.idempotencyKey, hash);
      if (earlier) return earlier;
      const retryAfterSeconds = await rateLimited(sql, options.address, options.block, rateLimit);
      if (retryAfterSeconds !== undefined) return { kind: 'rate-limited', retryAfterSeconds };
      const outcome = await insert(sql);
      if (outcome.kind === 'stored') await recordHit(sql, options.address, options.block, rateLimit);
      return outcome;
    });
  }

  private async findByKey(sql: Sql, key: string, hash: string): Promise<SubmitOutcome | undefined> {
    const [row] = await sql.query<{ id: string; body_hash: string }>('SELECT id, body_hash FROM contact_messages WHERE idempotency_key = $1', [key]);
    if (!row) return undefined;
    return row.body_hash === hash ? { kind: 'repeated', id: row.id } : { kind: 'conflict' };
  }

  /**
   * Newest first; only those received at or after `since` when given. The
   * server's own reading (tests, the bench); an operator reads through
   * `operator`, which audits it.
   */
  async list(options: MessageQuery = {}, sql: Sql = this.db): Promise<StoredMessage[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (options.since) conditions.push(`m.received_at >= ${param(options.since.toISOString())}::timestamptz`);
    // Each word of `q` is in the name, the telephone or the text, any case; `%` and `_` are the words' own.
    for (const word of (options.q ?? '').split(/\s+/).filter(Boolean).slice(0, 10)) {
      const pattern = param(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      conditions.push(`(m.name ILIKE ${pattern} OR m.telephone ILIKE ${pattern} OR m.message ILIKE ${pattern})`);
    }
    if (options.before !== undefined) {
      const before = param(options.before);
      conditions.push(
        `EXISTS (SELECT 1 FROM contact_messages b WHERE b.id::text = ${before} AND (m.received_at < b.received_at OR (m.received_at = b.received_at AND m.id > b.id)))`,
      );
    }
    const limit = options.limit === undefined ? '' : `LIMIT ${param(options.limit)}`;
    // The page first, from the newest-first index, then its delivery rows: a page of 50 reads 50 messages, not all of them.
    const rows = await sql.query<MessageRow>(
      `WITH page AS (
         SELECT * FROM contact_messages m ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
         ORDER BY m.received_at DESC, m.id ${limit})
       SELECT ${MESSAGE_COLUMNS} FROM page m JOIN contact_outbox o ON o.message_id = m.id
       ORDER BY m.received_at DESC, m.id`,
      params,
    );
    return rows.map(toMessage);
  }

  /** One message: the server's own reading, unaudited (the deliverer, tests); an operator's goes through `operator`. */
  async get(id: string, sql: Sql = this.db): Promise<StoredMessage | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await sql.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM contact_messages m JOIN contact_outbox o ON o.message_id = m.id WHERE m.id = $1`,
      [id],
    );
    return row && toMessage(row);
  }

  /**
   * What `actor` (a token's name, or `local:<OS user>`) reads and deletes:
   * each read, export and deletion is recorded with the ids it touched, in
   * the transaction that touches them, so nothing is read or deleted
   * unrecorded. A read that finds nothing is recorded too.
   */
  operator(actor: string): OperatorMessages {
    const audited = <T>(work: (sql: Sql) => Promise<{ result: T; action: MessageAccessAction; ids: string[]; detail: string }>) =>
      this.db.transaction(async (sql) => {
        const { result, action, ids, detail } = await work(sql);
        // The control API request doing it, if one is (currentRequestId): its lines in the log.
        await sql.query('INSERT INTO contact_message_audit (actor, action, message_ids, detail, request_id) VALUES ($1, $2, $3::text[], $4, $5)', [
          actor,
          action,
          ids,
          detail,
          currentRequestId() ?? null,
        ]);
        return result;
      });
    return {
      list: (options) =>
        audited(async (sql) => {
          const messages = await this.list(options, sql);
          // What was asked, never the search's words: those may be a person's name.
          const since = `${options.since ? ` received since ${options.since.toISOString()}` : ''}${options.q ? ' found by a search' : ''}`;
          return options.export
            ? {
                result: messages,
                action: 'message-export',
                ids: messages.map((message) => message.id),
                detail: `exported ${messages.length} message(s)${since} as ${options.export}`,
              }
            : { result: messages, action: 'message-read', ids: messages.map((message) => message.id), detail: `listed ${messages.length} message(s)${since}` };
        }),
      get: (id) =>
        audited(async (sql) => {
          const message = await this.get(id, sql);
          return {
            result: message,
            action: 'message-read',
            ids: message ? [message.id] : [],
            detail: message ? 'showed 1 message' : `asked for ${UUID.test(id) ? id : 'a message id'}, which is not stored`,
          };
        }),
      delete: (id) =>
        audited(async (sql) => {
          const [deleted] = UUID.test(id) ? await sql.query<{ id: string }>('DELETE FROM contact_messages WHERE id = $1 RETURNING id', [id]) : [];
          return {
            result: deleted !== undefined,
            action: 'message-delete',
            ids: deleted ? [deleted.id] : [],
            detail: deleted ? 'deleted 1 message' : `asked to delete ${UUID.test(id) ? id : 'a message id'}, which is not stored`,
          };
        }),
    };
  }

  /** The messages' audit log, newest first: who read, exported or deleted which messages. */
  async accessLog(options: Partial<AuditFilter> = {}): Promise<MessageAccessEntry[]> {
    const page = auditPageSql({ ...options, limit: options.limit ?? 100 });
    const rows = await this.db.query<{
      at: Date | string;
      actor: string;
      action: MessageAccessAction;
      message_ids: string[];
      detail: string;
      request_id: string | null;
      at_micros: string;
      seq_text: string;
    }>(`SELECT at, actor, action, message_ids, detail, request_id, ${AUDIT_CURSOR_COLUMNS} FROM contact_message_audit ${page.where} ${page.tail}`, page.params);
    return rows.map((row) => ({
      atMicros: row.at_micros,
      seq: row.seq_text,
      at: new Date(row.at).toISOString(),
      actor: row.actor,
      action: row.action,
      ids: row.message_ids,
      detail: row.message_ids.length > 0 ? `${row.detail}: ${row.message_ids.join(', ')}` : row.detail,
      requestId: row.request_id,
    }));
  }

  /** The retention job: deletes messages received more than `days` days ago; returns how many. */
  async deleteOlderThan(days: number): Promise<number> {
    const rows = await this.db.query('DELETE FROM contact_messages WHERE received_at < now() - make_interval(days => $1) RETURNING id', [days]);
    // Rate-limit entries older than a day serve no window.
    await this.db.query("DELETE FROM contact_rate_hits WHERE at < now() - interval '1 day'");
    return rows.length;
  }

  /**
   * Claims up to `limit` due deliveries for `leaseSeconds`. Rows another
   * process has locked are skipped, and a claimed row is not due again until
   * the lease ends, so each delivery is attempted by one process at a time.
   */
  async claimDeliveries(limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    const rows = await this.db.query<MessageRow & { channels_done: string[] }>(
      `WITH due AS (
         SELECT message_id FROM contact_outbox
          WHERE status = 'queued' AND next_attempt_at <= now()
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE contact_outbox o
            SET attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
           FROM due WHERE o.message_id = due.message_id
         RETURNING o.*
       )
       SELECT ${MESSAGE_COLUMNS}, o.channels_done
         FROM claimed o JOIN contact_messages m ON m.id = o.message_id
        ORDER BY m.received_at`,
      [limit, leaseSeconds],
    );
    return rows.map((row) => ({ message: toMessage(row), attempt: row.attempts, channelsDone: row.channels_done }));
  }

  async markDelivered(id: string, channelsDone: readonly string[]): Promise<void> {
    await this.db.query("UPDATE contact_outbox SET status = 'delivered', delivered_at = now(), channels_done = $2, last_error = NULL WHERE message_id = $1", [
      id,
      [...channelsDone],
    ]);
  }

  /**
   * Records a failed attempt: tried again in `retryInSeconds`, or marked
   * failed for good (and still readable) when that is undefined.
   */
  async markFailed(id: string, options: { error: string; channelsDone: readonly string[]; retryInSeconds?: number }): Promise<void> {
    await this.db.query(
      `UPDATE contact_outbox
          SET status = CASE WHEN $4::double precision IS NULL THEN 'failed' ELSE 'queued' END,
              next_attempt_at = now() + make_interval(secs => coalesce($4::double precision, 0)),
              channels_done = $3, last_error = $2
        WHERE message_id = $1`,
      [id, options.error.slice(0, 1000), [...options.channelsDone], options.retryInSeconds ?? null],
    );
  }

  /** How many messages are stored and queued: for tests, the bench and the log. */
  async counts(): Promise<{ messages: number; queued: number; delivered: number; failed: number }> {
    const [row] = await this.db.query<{ messages: number; queued: number; delivered: number; failed: number }>(
      `SELECT count(*)::integer AS messages,
              count(*) FILTER (WHERE o.status = 'queued')::integer AS queued,
              count(*) FILTER (WHERE o.status = 'delivered')::integer AS delivered,
              count(*) FILTER (WHERE o.status = 'failed')::integer AS failed
         FROM contact_messages m JOIN contact_outbox o ON o.message_id = m.id`,
    );
    return row!;
  }

  /** The delivery outbox now, for the metrics: messages waiting to be delivered, the oldest one's age, and those given up (failed). */
  async outbox(): Promise<{ waiting: number; oldestSeconds: number; failed: number }> {
    const [row] = await this.db.query<{ waiting: number; oldest: number | null; failed: number }>(
      `SELECT count(*) FILTER (WHERE o.status = 'queued')::integer AS waiting,
              extract(epoch FROM now() - min(m.received_at) FILTER (WHERE o.status = 'queued'))::float8 AS oldest,
              count(*) FILTER (WHERE o.status = 'failed')::integer AS failed
         FROM contact_outbox o JOIN contact_messages m ON m.id = o.message_id
        WHERE o.status <> 'delivered'`,
    );
    return { waiting: row?.waiting ?? 0, oldestSeconds: row?.oldest ?? 0, failed: row?.failed ?? 0 };
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
