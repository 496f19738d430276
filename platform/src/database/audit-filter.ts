/**
 * A page of an audit table (`seq`, `at`, `actor`, `action` columns), newest
 * first: the releases' audit and the messages' access log are read through
 * the same filters and the same cursor, so the control API can merge them.
 */
export interface AuditFilter {
  actor?: string;
  action?: string;
  /** At or after. */
  since?: Date;
  /** Before. */
  until?: Date;
  /** The entries older than this: `at` earlier in microseconds since the epoch, or as early with a smaller `seq`. */
  before?: { atMicros: string; seq: string };
  limit: number;
}

/** What AuditFilter adds to a SELECT: the columns that make a cursor, and the WHERE and ORDER BY … LIMIT of a page. */
export const AUDIT_CURSOR_COLUMNS = '(extract(epoch FROM at) * 1000000)::bigint::text AS at_micros, seq::text AS seq_text';

/** The WHERE (with its leading `WHERE`, or ''), the ORDER/LIMIT and the parameters, numbered from `first`, with `extra` conditions before. */
export function auditPageSql(
  filter: AuditFilter,
  first = 1,
  extra: { condition: string; value: unknown }[] = [],
): { where: string; tail: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${first + params.length - 1}`));
  };
  for (const { condition, value } of extra) add((n) => condition.replaceAll('$?', n), value);
  if (filter.actor !== undefined) add((n) => `actor = ${n}`, filter.actor);
  if (filter.action !== undefined) add((n) => `action = ${n}`, filter.action);
  if (filter.since) add((n) => `at >= ${n}::timestamptz`, filter.since.toISOString());
  if (filter.until) add((n) => `at < ${n}::timestamptz`, filter.until.toISOString());
  if (filter.before) {
    // The first bound (a millisecond loose) lets the (at, seq) index find the page; the second is exact.
    add((n) => `at <= to_timestamp(${n}::bigint / 1000000.0) + interval '1 millisecond'`, filter.before.atMicros);
    const at = `$${first + params.length - 1}::bigint`;
    const micros = '(extract(epoch FROM at) * 1000000)::bigint';
    add((n) => `(${micros} < ${at} OR (${micros} = ${at} AND seq < ${n}::bigint))`, filter.before.seq);
  }
  params.push(Math.max(1, Math.min(filter.limit, 10_000)));
  return {
    where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '',
    tail: `ORDER BY at DESC, seq DESC LIMIT $${first + params.length - 1}`,
    params,
  };
}
