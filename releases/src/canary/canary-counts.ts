import { createHmac } from 'node:crypto';
import type { Sql } from '@portico/platform/database';
import { parseVitalKey, type Histogram } from '../health/vital-histogram';

/**
 * What one client network reported for one release while a canary ran:
 * the judge's input before its bounds. The network is only its keyed hash.
 */
export interface NetworkCounts {
  /** The network's keyed hash, in hex: which network it was cannot be read from it. */
  network: string;
  visits: number;
  failures: number;
  lcp: Histogram;
  inp: Histogram;
}

/** What the servers saw themselves of one release while a canary ran: trusted (no visitor sends it), and needing no visitor. */
export interface ServerSignals {
  /** Renders of its node build on a server that failed: threw, refused, or past the deadline. */
  renderFailures: number;
  /** Times a server's supervisor set its node build aside (its workers died again and again). */
  setAside: number;
  /** 5xx answers of `/api/contact` to visitors of its cohort. */
  contactErrors: number;
  /** Why its files failed the background check (the release's broken mark), or null. */
  broken: string | null;
}

/** Both releases of a canary, as the judge reads them: per network what visitors reported, and what the servers saw. */
export interface CanaryCounts {
  active: { networks: NetworkCounts[]; signals: ServerSignals };
  candidate: { networks: NetworkCounts[]; signals: ServerSignals };
}

export const noSignals = (): ServerSignals => ({ renderFailures: 0, setAside: 0, contactErrors: 0, broken: null });

/** The vitals kept per network: the two the judge compares (CLS is shown, not judged). */
export const JUDGED_VITALS = ['lcp', 'inp'] as const;

/** The signals a server sends, by the key they are counted under. */
const SIGNAL_KEYS = { 'render-failed': 'renderFailures', 'set-aside': 'setAside', 'contact-5xx': 'contactErrors' } as const;
export type SignalKind = keyof typeof SIGNAL_KEYS;
export const isSignalKind = (value: string): value is SignalKind => Object.hasOwn(SIGNAL_KEYS, value);

/**
 * The key a canary's networks are hashed under: derived from the database's
 * shared secret (every server derives the same one) and the canary's number
 * and start, so it changes with every canary: a network's hash in one
 * canary says nothing about it in another.
 */
export function canaryNetworkKey(secret: Buffer, canary: { id: number; startedAt: string }): Buffer {
  return createHmac('sha256', secret).update(`portico canary networks ${canary.id} ${canary.startedAt}`, 'utf8').digest();
}

/** A network (clientNetwork's text) under a canary's key: 16 bytes, enough to keep networks apart, useless to find one. */
export function networkHash(key: Buffer, network: string): Buffer {
  return createHmac('sha256', key).update(network, 'utf8').digest().subarray(0, 16);
}

/** One count to add to a canary's per-network table. */
export interface CanaryNetworkCount {
  canaryId: number;
  network: Buffer;
  releaseId: string;
  hour: Date;
  key: string;
  count: number;
}

/**
 * Adds counts to the canaries' per-network table, in its key's order (two
 * servers adding at once wait, never deadlock); counts of a canary that has
 * ended meanwhile are dropped by the join, not stored.
 */
export async function addNetworkCounts(sql: Sql, counts: readonly CanaryNetworkCount[]): Promise<void> {
  const rows = new Map<string, { canary_id: number; network: string; release_id: string; hour: string; key: string; count: number }>();
  for (const count of counts) {
    const network = count.network.toString('hex');
    const hour = count.hour.toISOString();
    const id = JSON.stringify([count.canaryId, network, count.releaseId, hour, count.key]);
    const known = rows.get(id);
    if (known) known.count += count.count;
    else rows.set(id, { canary_id: count.canaryId, network, release_id: count.releaseId, hour, key: count.key, count: count.count });
  }
  if (rows.size === 0) return;
  await sql.query(
    `INSERT INTO canary_network_counts AS n (canary_id, network, release_id, hour, key, count)
     SELECT t.canary_id, decode(t.network, 'hex'), t.release_id, t.hour, t.key, t.count
     FROM jsonb_to_recordset($1::jsonb) AS t(canary_id bigint, network text, release_id text, hour timestamptz, key text, count bigint)
     JOIN release_canaries c ON c.id = t.canary_id
     ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (canary_id, network, release_id, hour, key) DO UPDATE SET count = n.count + excluded.count`,
    [JSON.stringify([...rows.values()])],
  );
}

/** Both releases' counts for canary `canaryId`: only what was counted for this canary, so nothing from before it or from another. */
export async function readCanaryCounts(sql: Sql, canaryId: number, releases: { active: string; candidate: string }): Promise<CanaryCounts> {
  const [networkRows, signalRows, brokenRows] = [
    await sql.query<{ network: string; release_id: string; key: string; count: string }>(
      `SELECT encode(network, 'hex') AS network, release_id, key, sum(count)::text AS count FROM canary_network_counts
       WHERE canary_id = $1 AND release_id = ANY($2::text[]) GROUP BY network, release_id, key`,
      [canaryId, [releases.active, releases.candidate]],
    ),
    await sql.query<{ release_id: string; key: string; count: string }>(
      'SELECT release_id, key, count::text AS count FROM canary_signals WHERE canary_id = $1',
      [canaryId],
    ),
    await sql.query<{ id: string; broken_detail: string | null; broken_at: Date | string | null }>(
      'SELECT id, broken_at, broken_detail FROM releases WHERE id = ANY($1::text[])',
      [[releases.active, releases.candidate]],
    ),
  ];
  const side = (releaseId: string) => {
    const networks = new Map<string, NetworkCounts>();
    for (const row of networkRows) {
      if (row.release_id !== releaseId) continue;
      let counts = networks.get(row.network);
      if (!counts) networks.set(row.network, (counts = { network: row.network, visits: 0, failures: 0, lcp: new Map(), inp: new Map() }));
      const count = Number(row.count);
      if (row.key === 'visits') counts.visits += count;
      else if (row.key === 'failures') counts.failures += count;
      else {
        const vital = parseVitalKey(row.key);
        if (vital?.vital === 'lcp' || vital?.vital === 'inp') (counts[vital.vital] as Map<number, number>).set(vital.bucket, count);
      }
    }
    const signals = noSignals();
    for (const row of signalRows) if (row.release_id === releaseId && isSignalKind(row.key)) signals[SIGNAL_KEYS[row.key]] += Number(row.count);
    const broken = brokenRows.find((row) => row.id === releaseId);
    if (broken?.broken_at) signals.broken = broken.broken_detail ?? 'its files failed the background check';
    return { networks: [...networks.values()].sort((a, b) => a.network.localeCompare(b.network)), signals };
  };
  return { active: side(releases.active), candidate: side(releases.candidate) };
}

/** Counts one server signal for the section's running canary, when `releaseId` is its candidate or the release it is judged against. */
export async function addSignal(sql: Sql, section: string, releaseId: string, kind: SignalKind): Promise<void> {
  await sql.query(
    `INSERT INTO canary_signals AS s (canary_id, release_id, key, count)
     SELECT c.id, $2, $3, 1 FROM release_canaries c
     WHERE c.section = $1 AND (c.release_id = $2 OR $2 IN (
       SELECT release_id FROM release_activations WHERE section = $1 AND popped_at IS NULL ORDER BY seq DESC LIMIT 1))
     ON CONFLICT (canary_id, release_id, key) DO UPDATE SET count = s.count + 1`,
    [section, releaseId, kind],
  );
}
