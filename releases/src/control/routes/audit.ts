import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { MessageAccessEntry } from '@portico/messages';
import { spreadsheetCsv } from '@portico/platform/csv';
import { COMMON_HEADERS, declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import type { AuditFilter } from '@portico/platform/database';
import type { z } from 'zod';
import { MESSAGE_ACCESS_ACTIONS, AUDIT_CSV_PATH, auditQuerySchema, auditRoutes, MAX_AUDIT_LIMIT } from '@portico/control-contract';
import type { Actor, AuditEntry } from '../../release';
import { visibleSections } from '../../scopes';
import { answer, type ControlContext } from '../control-context';

type AuditQuery = z.output<typeof auditQuerySchema>;

/** The largest sequence number, so every entry of an instant is before it. */
const EVERY_SEQ = '9223372036854775807';

/**
 * A page's cursor: the last entry's instant in microseconds, its log (`r`
 * the releases', `m` the messages' accesses) and its number. At the same
 * instant the releases' entries come first, so a cursor in one log says
 * where the other's page starts too.
 */
const CURSOR = /^(\d{1,20})\.([rm])(\d{1,20})$/;
const cursorOf = (log: 'r' | 'm', entry: { atMicros: string; seq: string }) => `${entry.atMicros}.${log}${entry.seq}`;
function pagesAfter(before: string | undefined): { releases?: AuditFilter['before']; messages?: AuditFilter['before'] } {
  if (before === undefined) return {};
  const match = CURSOR.exec(before);
  if (!match) throw new HttpRefusal(400, 'before is not a cursor of this audit log (the last entry\'s "cursor")', { field: 'before' });
  const [, atMicros, log, seq] = match as unknown as [string, string, 'r' | 'm', string];
  return log === 'r'
    ? { releases: { atMicros, seq }, messages: { atMicros, seq: EVERY_SEQ } }
    : { releases: { atMicros, seq: '0' }, messages: { atMicros, seq } };
}

/** A messages audit entry in the audit log's shape: no section, release or `from`. */
function asAuditEntry(entry: MessageAccessEntry): AuditEntry {
  return {
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    section: null,
    release: null,
    from: null,
    detail: entry.detail,
    requestId: entry.requestId ?? null,
    cursor: cursorOf('m', entry),
  };
}

const isMessageAction = (action: string | undefined) => (MESSAGE_ACCESS_ACTIONS as readonly string[]).includes(action ?? '');

/**
 * The entries `query` asks for that `actor` may see, newest first: an
 * integrator sees everything, a section token its sections' entries, a
 * messages token who read, exported or deleted messages (beside the rest it
 * may see).
 */
async function entriesFor(context: ControlContext, actor: Actor, query: AuditQuery, limit: number): Promise<AuditEntry[]> {
  const { section: asked, before, ...filters } = query;
  const { messages } = context;
  const pages = pagesAfter(before);
  const filter = { actor: filters.actor, action: filters.action, since: filters.since, until: filters.until, limit };
  // Who read, exported or deleted messages: shown to a messages token, in the whole log (no section asked).
  const wantsAccesses = asked === undefined && actor.scopes.includes('messages') && messages && (filter.action === undefined || isMessageAction(filter.action));
  const accesses = wantsAccesses ? (await messages.accessLog({ ...filter, before: pages.messages })).map(asAuditEntry) : undefined;
  // A messages token with no section sees those alone.
  if (
    accesses &&
    visibleSections(
      actor,
      (await context.store.sections.list({ retired: true })).map((entry) => entry.id),
    ).length === 0
  )
    return accesses;
  if (!accesses && isMessageAction(filter.action)) return [];
  // An integrator sees everything, token changes included; a section token its sections' entries.
  const sections = asked === undefined && actor.scopes.includes('releases') ? undefined : await context.sectionsToShow(actor, asked);
  const entries = isMessageAction(filter.action)
    ? []
    : (await context.store.audit.list({ sections, ...filter, before: pages.releases })).map(({ atMicros, seq, ...entry }) => ({
        ...entry,
        cursor: cursorOf('r', { atMicros, seq }),
      }));
  if (!accesses) return entries;
  // Newest first; at one instant the releases' entries first (the cursor's order).
  const key = (entry: AuditEntry) => entry.cursor!.split('.')[0]!.padStart(20, '0');
  return [...entries, ...accesses].sort((a, b) => key(b).localeCompare(key(a))).slice(0, limit);
}

/** The audit log as the console reads it: a page (with its cursor), or all of it as CSV, the same filters for both. */
export const auditLogRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { list } = auditRoutes;
  app.route({
    ...declared(list),
    handler: async (request, reply) => answer(reply, list, 200, await entriesFor(context, context.actorOf(request), request.query, request.query.limit)),
  });

  app.route({
    method: 'GET',
    url: AUDIT_CSV_PATH,
    schema: { querystring: auditQuerySchema },
    handler: async (request: FastifyRequest<{ Querystring: AuditQuery }>, reply) => {
      const entries = await entriesFor(context, context.actorOf(request), request.query, MAX_AUDIT_LIMIT);
      const columns = ['at', 'actor', 'action', 'section', 'release', 'from', 'detail', 'requestId'] as const;
      const rows = entries.map(
        (entry) => Object.fromEntries(columns.map((column) => [column, entry[column] ?? ''])) as Record<(typeof columns)[number], string>,
      );
      return reply
        .code(200)
        .headers({
          ...COMMON_HEADERS,
          'Content-Type': 'text/csv; charset=utf-8',
          'Cache-Control': 'no-store',
          'Content-Disposition': 'attachment; filename="portico-audit.csv"',
        })
        .send(spreadsheetCsv(columns, rows));
    },
  });
  done();
};
