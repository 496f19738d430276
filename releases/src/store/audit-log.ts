import type { SectionId } from '@portico/contract/sections';
import { AUDIT_CURSOR_COLUMNS, auditPageSql, type AuditFilter, type Database, type Sql } from '@portico/platform/database';
import { currentRequestId } from '@portico/platform/http';
import type { AuditAction, AuditEntry } from '../release';
import { auditFactsSchema } from '@portico/control-contract';
import { iso } from './release-rows';

/** An audit entry to record: who and what, and where it applies; the time is the database's. */
export type AuditInput = Pick<AuditEntry, 'actor' | 'action'> &
  Partial<Pick<AuditEntry, 'section' | 'release' | 'from' | 'detail' | 'facts'>> & { note?: string | null };

/**
 * Records `entry` through `sql`: inside a change's transaction, the entry
 * is committed with the change or not at all. Made while a control API
 * request runs, it carries that request's id (currentRequestId), so its
 * log lines can be found from it.
 */
export async function recordAudit(sql: Sql, entry: AuditInput): Promise<void> {
  await sql.query(
    'INSERT INTO release_audit (actor, action, section, release, from_release, detail, facts, note, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [
      entry.actor,
      entry.action,
      entry.section ?? null,
      entry.release ?? null,
      entry.from ?? null,
      entry.detail ?? '',
      entry.facts === undefined ? null : JSON.stringify(entry.facts),
      entry.note || null,
      currentRequestId() ?? null,
    ],
  );
}

/** The facts a row holds, when they still read as the schema says (a later server's kind is left to the detail). */
function factsOf(stored: unknown): Pick<AuditEntry, 'facts'> {
  if (stored === null || stored === undefined) return {};
  const parsed = auditFactsSchema.safeParse(typeof stored === 'string' ? JSON.parse(stored) : stored);
  return parsed.success ? { facts: parsed.data } : {};
}

/** The audit log: who did what to which section and release, newest first. */
export class AuditLog {
  constructor(private readonly db: Database) {}

  /**
   * How many entries of each of `actions` each section has, over every
   * server (the log is shared): the metrics' count of activations,
   * rollbacks and canary decisions, which a rule watches rise.
   */
  async countsOf(actions: readonly AuditAction[]): Promise<{ section: string; action: AuditAction; count: number }[]> {
    return this.db.query(
      `SELECT section, action, count(*)::integer AS count FROM release_audit
        WHERE action = ANY($1::text[]) AND section IS NOT NULL GROUP BY section, action`,
      [[...actions]],
    );
  }

  /** Records what a caller did outside the store's own changes (a refused publish, a preview link). */
  async record(entry: AuditInput): Promise<void> {
    await recordAudit(this.db, entry);
  }

  /**
   * The audit log, newest first: of `sections` only (entries with no
   * section, such as tokens, left out), or all; filtered and paged as
   * `filter` says. Each entry's `at` and `seq` make the next page's cursor.
   */
  async list(options: { sections?: readonly SectionId[] } & Partial<AuditFilter> = {}): Promise<(AuditEntry & { atMicros: string; seq: string })[]> {
    const { sections, ...filter } = options;
    const page = auditPageSql({ ...filter, limit: filter.limit ?? 100 }, 1, sections ? [{ condition: 'section = ANY($?::text[])', value: [...sections] }] : []);
    const rows = await this.db.query<{
      at: Date | string;
      actor: string;
      action: AuditAction;
      section: SectionId | null;
      release: string | null;
      from_release: string | null;
      detail: string;
      facts: unknown;
      note: string | null;
      request_id: string | null;
      at_micros: string;
      seq_text: string;
    }>(
      `SELECT at, actor, action, section, release, from_release, detail, facts, note, request_id, ${AUDIT_CURSOR_COLUMNS} FROM release_audit ${page.where} ${page.tail}`,
      page.params,
    );
    return rows.map((row) => ({
      at: iso(row.at),
      actor: row.actor,
      action: row.action,
      section: row.section,
      release: row.release,
      from: row.from_release,
      detail: row.detail,
      ...factsOf(row.facts),
      ...(row.note === null ? {} : { note: row.note }),
      requestId: row.request_id,
      atMicros: row.at_micros,
      seq: row.seq_text,
    }));
  }
}
