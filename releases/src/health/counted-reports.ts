import type { Sql } from '@portico/platform/database';
import { networkCap, shareOf } from '../canary/decide-canary';

/**
 * What the canaries' bounds take off each release's reports: by release,
 * hour (ISO 8601) and release_health key, a count to add (never positive).
 */
export type BoundedOff = Map<string, Map<string, Map<string, number>>>;

/** The per-network keys in release_health's words: a failed visit is `arrival:failed` there; visits and vital buckets are the same keys. */
const healthKeyOf = (key: string) => (key === 'failures' ? 'arrival:failed' : key);

interface Row {
  canary_id: string;
  network: string;
  release_id: string;
  hour: Date | string;
  key: string;
  count: string;
  min_networks: number | null;
  share: number | null;
}

/**
 * For each of `releaseIds`, what the canaries that counted its reports per
 * network, running or ended, left out of them from the hour `since` on:
 * each network bounded to its share of the release's visits as its judge
 * bounds it (countedHealth: min(visits, cap) / visits of its visits,
 * failures and vital buckets), the cap computed over the hours read (over
 * the whole canary when they hold it, the judge's own figures). Reports
 * no canary counted per network (outside any canary, or of an id naming
 * none) are not touched: no decision was made on them. The servers' own
 * failures are the running judge's alone (canary_signals goes with the
 * canary and has no hour).
 */
export async function boundedOff(sql: Sql, releaseIds: readonly string[], since: Date): Promise<BoundedOff> {
  const answer: BoundedOff = new Map();
  if (releaseIds.length === 0) return answer;
  const rows = await sql.query<Row>(
    `SELECT n.canary_id::text AS canary_id, encode(n.network, 'hex') AS network, n.release_id, n.hour, n.key, n.count::text AS count,
       coalesce(c.min_networks, e.min_networks) AS min_networks, coalesce(c.max_network_share, e.max_network_share) AS share
     FROM canary_network_counts n
     LEFT JOIN release_canaries c ON c.id = n.canary_id
     LEFT JOIN ended_canaries e ON e.id = n.canary_id
     WHERE n.release_id = ANY($1::text[]) AND n.hour >= $2::timestamptz`,
    [[...releaseIds], since.toISOString()],
  );
  // Each canary bounds each of its releases on its own, as its judge does.
  const groups = new Map<string, { rows: Row[]; visits: Map<string, number> }>();
  for (const row of rows) {
    const id = `${row.canary_id} ${row.release_id}`;
    const group = groups.get(id) ?? { rows: [], visits: new Map<string, number>() };
    groups.set(id, group);
    group.rows.push(row);
    if (row.key === 'visits') group.visits.set(row.network, (group.visits.get(row.network) ?? 0) + Number(row.count));
  }
  for (const { rows: counted, visits } of groups.values()) {
    const first = counted[0]!;
    // Bounds unknown (none kept for that canary): its counts are left as reported rather than guessed at.
    if (first.min_networks === null || first.share === null) continue;
    const cap = networkCap([...visits.values()], shareOf({ minNetworks: first.min_networks, maxNetworkShare: first.share }));
    for (const row of counted) {
      const total = visits.get(row.network) ?? 0;
      if (total <= 0 || total <= cap) continue;
      const hour = new Date(row.hour).toISOString();
      const ofRelease = answer.get(row.release_id) ?? new Map<string, Map<string, number>>();
      answer.set(row.release_id, ofRelease);
      const ofHour = ofRelease.get(hour) ?? new Map<string, number>();
      ofRelease.set(hour, ofHour);
      const key = healthKeyOf(row.key);
      ofHour.set(key, (ofHour.get(key) ?? 0) + (cap / total - 1) * Number(row.count));
    }
  }
  return answer;
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
