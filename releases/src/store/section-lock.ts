import { isBuiltInSection } from '@portico/contract/section-entries';
import type { SectionId } from '@portico/contract/sections';
import type { Database, Sql } from '@portico/platform/database';
import { isSection } from '../scopes';
import { recordAudit, type AuditInput } from './audit-log';
import { ReleaseError } from './release-error';
import { canariesIn, type StoredCanary } from './release-rows';

// How every change of a section is made, by the activation history and the
// canaries alike: one after the other on every server (the section's row
// lock), audited, the generation bumped and announced in the same
// transaction.

/** The channel every activation, rollback and canary change is announced on, with the section as payload. */
export const RELEASES_CHANNEL = 'portico_releases';

/** The live activation history of a section, top (active) first. */
export interface StackEntry {
  seq: string;
  release_id: string;
}

/** What a change sees under the lock: the section's activation history and its canary. */
export interface LockedSection {
  stack: StackEntry[];
  canary: StoredCanary | undefined;
}

/**
 * Runs `work` in one transaction holding the section's row lock: every
 * change of a section (activation, rollback, canary, its entry) on every
 * server takes it, so they happen one after the other. `work` sees the
 * section's activation history and its canary as they are under the lock.
 * A section the catalogue does not hold is 404, a retired one 409.
 */
export async function lockedSection<T>(db: Database, section: string, work: (sql: Sql, now: LockedSection) => Promise<T>): Promise<T> {
  if (!isSection(section)) throw new ReleaseError('not-found', `no section ${JSON.stringify(section)}`);
  return db.transaction(async (sql) => work(sql, await lockSectionIn(sql, section)));
}

/**
 * Takes the section's row lock in `sql`'s transaction, and reads its
 * activation history and canary under it. `retired`: a retired section is
 * taken too (its retirement is the one change it may still get once).
 */
export async function lockSectionIn(sql: Sql, section: string, options: { retired?: boolean } = {}): Promise<LockedSection> {
  // A built-in section is in the catalogue whether or not a change ever made its row.
  if (isBuiltInSection(section)) await sql.query('INSERT INTO release_sections (section) VALUES ($1) ON CONFLICT (section) DO NOTHING', [section]);
  const [row] = await sql.query<{ added_at: Date | string | null; retired_at: Date | string | null }>(
    'SELECT added_at, retired_at FROM release_sections WHERE section = $1 FOR UPDATE',
    [section],
  );
  if (!row || (!isBuiltInSection(section) && row.added_at === null)) throw new ReleaseError('not-found', `no section ${JSON.stringify(section)}`);
  if (row.retired_at !== null && !options.retired) throw new ReleaseError('conflict', retiredProblem(section));
  // Ordered by the column, not by the text alias: as text, seq 10 sorts below seq 9.
  const stack = await sql.query<StackEntry>(
    'SELECT a.seq::text AS seq, a.release_id FROM release_activations a WHERE a.section = $1 AND a.popped_at IS NULL ORDER BY a.seq DESC',
    [section],
  );
  const canary = (await canariesIn(sql, section)).get(section as SectionId);
  return { stack, canary };
}

/** Why a retired section takes no change: retirement is final. */
export const retiredProblem = (section: string) => `${section} is retired: its releases and audit stay, but it takes no change and its id is never used again`;

/**
 * Whether `section` may take a release or a token now, in `sql`'s
 * transaction: held in the catalogue (404) and not retired (409). It takes
 * the row's share lock, so a retirement under way is waited for, and one
 * that comes after waits for this transaction: a token or a release is
 * never made for a section retired meanwhile.
 */
export async function needLiveSection(sql: Sql, section: string): Promise<void> {
  if (!isSection(section)) throw new ReleaseError('not-found', `no section ${JSON.stringify(section)}`);
  const [row] = await sql.query<{ added_at: Date | string | null; retired_at: Date | string | null }>(
    'SELECT added_at, retired_at FROM release_sections WHERE section = $1 FOR SHARE',
    [section],
  );
  if (isBuiltInSection(section)) return;
  if (!row || row.added_at === null) throw new ReleaseError('not-found', `no section ${JSON.stringify(section)}`);
  if (row.retired_at !== null) throw new ReleaseError('conflict', retiredProblem(section));
}

/**
 * Closes a change made under the lock: its audit entry, in the same
 * transaction; the section's generation, which the watchers poll (and
 * when the active release changed, since when and by whom); and the
 * announcement on RELEASES_CHANNEL, delivered when the transaction
 * commits, and only then.
 */
export async function announce(sql: Sql, section: string, entry: AuditInput, activeChanged: boolean): Promise<void> {
  await recordAudit(sql, { ...entry, section });
  if (activeChanged) {
    await sql.query('UPDATE release_sections SET generation = generation + 1, changed_at = now(), changed_by = $2 WHERE section = $1', [section, entry.actor]);
  } else {
    await sql.query('UPDATE release_sections SET generation = generation + 1 WHERE section = $1', [section]);
  }
  await sql.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, section]);
}

/** Pushes `releaseId` on the section's activation history: it becomes the active release. */
export async function pushActivation(sql: Sql, section: string, releaseId: string, actor: string): Promise<void> {
  await sql.query('INSERT INTO release_activations (section, release_id, actor) VALUES ($1, $2, $3)', [section, releaseId, actor]);
}
