import type { Sql } from '@portico/platform/database';
import { CLIENTS_PER_BLOCK } from '../http/client-network';

/**
 * At most `max` new messages per client (`clientNetwork`: an IPv4 address,
 * an IPv6 /64) in any `windowSeconds`, and `CLIENTS_PER_BLOCK` x `max` per
 * IPv6 /48.
 */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** The budgets a message from `address` (in IPv6 /48 `block`, if any) spends: the client's, then its /48's. */
function budgetsOf(address: string, block: string | undefined, limit: RateLimit): { key: string; max: number }[] {
  const budgets = [{ key: address, max: limit.max }];
  // A key no client has: theirs are addresses and /64s.
  if (block !== undefined) budgets.push({ key: `block ${block}`, max: limit.max * CLIENTS_PER_BLOCK });
  return budgets;
}

/** Seconds until the key may send again, or undefined when it may now. */
async function overLimit(sql: Sql, key: string, max: number, windowSeconds: number): Promise<number | undefined> {
  // One key's requests are counted one at a time, on every instance.
  await sql.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`contact-rate:${key}`]);
  await sql.query('DELETE FROM contact_rate_hits WHERE client_address = $1 AND at <= now() - make_interval(secs => $2)', [key, windowSeconds]);
  const [row] = await sql.query<{ hits: number; wait: number | null }>(
    `SELECT count(*)::integer AS hits,
            ceil(extract(epoch FROM min(at) + make_interval(secs => $2) - now()))::integer AS wait
       FROM contact_rate_hits WHERE client_address = $1`,
    [key, windowSeconds],
  );
  if (!row || row.hits < max) return undefined;
  return Math.max(1, row.wait ?? windowSeconds);
}

/** Seconds until a message from `address` may be stored, or undefined when it may now (inside the storing transaction). */
export async function rateLimited(sql: Sql, address: string, block: string | undefined, limit: RateLimit): Promise<number | undefined> {
  for (const budget of budgetsOf(address, block, limit)) {
    const wait = await overLimit(sql, budget.key, budget.max, limit.windowSeconds);
    if (wait !== undefined) return wait;
  }
  return undefined;
}

/** A stored message's hits on its budgets, in the transaction that stored it. */
export async function recordHit(sql: Sql, address: string, block: string | undefined, limit: RateLimit): Promise<void> {
  for (const budget of budgetsOf(address, block, limit)) await sql.query('INSERT INTO contact_rate_hits (client_address) VALUES ($1)', [budget.key]);
}
