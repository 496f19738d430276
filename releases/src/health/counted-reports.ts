import type { Sql } from '@portico/platform/database';
import { networkCap, shareOf } from '../canary/decide-canary';
import type { Canary } from '../release';

/**
 * What the canaries' bounds take off each release's reports: by release,
 * hour (ISO 8601) and release_health key, a count to add (never positive).
 */
export type BoundedOff = Map<string, Map<string, Map<string, number>>>;

/** The per-network keys in release_health's words: a failed visit is `arrival:failed` there; visits and vital buckets are the same keys. */
const healthKeyOf = (key: string) => (key === 'failures' ? 'arrival:failed' : key);

interface NetworkRow {
  canary_id: string;
  network: string;
  release_id: string;
  hour: Date | string;
  key: string;
  count: string;
  min_networks: number;
  share: number;
}

interface OffRow {
  canaryId: string;
  releaseId: string;
  hour: string;
  key: string;
  count: number;
}

/**
 * What the judge leaves out of per-network counts: each canary bounds each
 * of its releases on its own, each network at min(visits, cap) / visits of
 * its visits, failures and vital buckets, the cap over the whole canary
 * (countedHealth's step, without the servers' own failures: those are the
 * running judge's alone, and have no hour).
 */
function offOf(rows: readonly NetworkRow[]): OffRow[] {
  const groups = new Map<string, { rows: NetworkRow[]; visits: Map<string, number> }>();
  for (const row of rows) {
    const id = `${row.canary_id} ${row.release_id}`;
    const group = groups.get(id) ?? { rows: [], visits: new Map<string, number>() };
    groups.set(id, group);
    group.rows.push(row);
    if (row.key === 'visits') group.visits.set(row.network, (group.visits.get(row.network) ?? 0) + Number(row.count));
  }
  const off = new Map<string, OffRow>();
  for (const { rows: counted, visits } of groups.values()) {
    const first = counted[0]!;
    const cap = networkCap([...visits.values()], shareOf({ minNetworks: first.min_networks, maxNetworkShare: first.share }));
    for (const row of counted) {
      const total = visits.get(row.network) ?? 0;
      if (total <= 0 || total <= cap) continue;
      const hour = new Date(row.hour).toISOString();
      const key = healthKeyOf(row.key);
      const id = JSON.stringify([row.canary_id, row.release_id, hour, key]);
      const known = off.get(id) ?? { canaryId: row.canary_id, releaseId: row.release_id, hour, key, count: 0 };
      off.set(id, known);
      known.count += (cap / total - 1) * Number(row.count);
    }
  }
  return [...off.values()].filter((row) => row.count < 0);
}

const NETWORK_ROWS = `SELECT n.canary_id::text AS canary_id, encode(n.network, 'hex') AS network, n.release_id, n.hour, n.key, n.count::text AS count,
  c.min_networks, c.max_network_share AS share
  FROM canary_network_counts n JOIN release_canaries c ON c.id = n.canary_id`;

/**
 * For each of `releaseIds`, what canaries' judges left out of its reports
 * from the hour `since` on: a running canary's from its per-network counts
 * now, an ended one's as written when it ended (canary_bounded). Reports no
 * canary counted per network (outside any canary, or of an id naming none)
 * are not touched: no decision was made on them.
 */
export async function boundedOff(sql: Sql, releaseIds: readonly string[], since: Date): Promise<BoundedOff> {
  const answer: BoundedOff = new Map();
  if (releaseIds.length === 0) return answer;
  const ids = [...releaseIds];
  // The cap is the whole canary's, as its judge computes it: every hour is read, only the window's are taken off.
  const running = offOf(await sql.query<NetworkRow>(`${NETWORK_ROWS} WHERE n.release_id = ANY($1::text[])`, [ids]));
  const ended = await sql.query<{ release_id: string; hour: Date | string; key: string; count: number }>(
    'SELECT release_id, hour, key, count FROM canary_bounded WHERE release_id = ANY($1::text[]) AND hour >= $2::timestamptz',
    [ids, since.toISOString()],
  );
  const rows = [
    ...running,
    ...ended.map((row) => ({ releaseId: row.release_id, hour: new Date(row.hour).toISOString(), key: row.key, count: Number(row.count) })),
  ];
  for (const row of rows) {
    if (row.hour < since.toISOString()) continue;
    const ofRelease = answer.get(row.releaseId) ?? new Map<string, Map<string, number>>();
    answer.set(row.releaseId, ofRelease);
    const ofHour = ofRelease.get(row.hour) ?? new Map<string, number>();
    ofRelease.set(row.hour, ofHour);
    ofHour.set(row.key, (ofHour.get(row.key) ?? 0) + row.count);
  }
  return answer;
}

/**
 * Ends a section's canary in the caller's transaction: first writes what
 * its judge left out of its releases' reports (canary_bounded), then
 * deletes it, its per-network counts with it. Every way a canary ends
 * (promoted, aborted, rolled back by the judge, overtaken by an
 * activation) comes through here.
 */
export async function endCanary(sql: Sql, section: string, canary: Pick<Canary, 'id'>): Promise<void> {
  const off = offOf(await sql.query<NetworkRow>(`${NETWORK_ROWS} WHERE n.canary_id = $1`, [canary.id]));
  if (off.length > 0) {
    await sql.query(
      `INSERT INTO canary_bounded (canary_id, release_id, hour, key, count)
       SELECT canary_id, release_id, hour, key, count
       FROM jsonb_to_recordset($1::jsonb) AS t(canary_id bigint, release_id text, hour timestamptz, key text, count double precision)
       ON CONFLICT (canary_id, release_id, hour, key) DO NOTHING`,
      [JSON.stringify(off.map((row) => ({ canary_id: row.canaryId, release_id: row.releaseId, hour: row.hour, key: row.key, count: row.count })))],
    );
  }
  await sql.query('DELETE FROM release_canaries WHERE section = $1', [section]);
}

/**
 * `counts` (release_health's, summed) with what the bounds left out taken
 * off, rounded to a millionth so that 80 - 17.5 reads 62.5, not
 * 62.50000000000001.
 */
export function withBounds(counts: ReadonlyMap<string, number>, off: ReadonlyMap<string, number> | undefined): Map<string, number> {
  const bounded = new Map(counts);
  for (const [key, count] of off ?? []) bounded.set(key, Math.max(0, Math.round(((bounded.get(key) ?? 0) + count) * 1e6) / 1e6));
  return bounded;
}
