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
 * change of a section (activation, rollback, canary) on every server
 * takes it, so they happen one after the other. `work` sees the
 * section's activation history and its canary as they are under the lock.
 */
export async function lockedSection<T>(db: Database, section: SectionId, work: (sql: Sql, now: LockedSection) => Promise<T>): Promise<T> {
  if (!isSection(section)) throw new ReleaseError('not-found', `no section ${JSON.stringify(section)}`);
  return db.transaction(async (sql) => {
    await sql.query('INSERT INTO release_sections (section) VALUES ($1) ON CONFLICT (section) DO NOTHING', [section]);
    await sql.query('SELECT section FROM release_sections WHERE section = $1 FOR UPDATE', [section]);
    // Ordered by the column, not by the text alias: as text, seq 10 sorts below seq 9.
    const stack = await sql.query<StackEntry>(
      'SELECT a.seq::text AS seq, a.release_id FROM release_activations a WHERE a.section = $1 AND a.popped_at IS NULL ORDER BY a.seq DESC',
      [section],
    );
    const canary = (await canariesIn(sql, section)).get(section);
    return work(sql, { stack, canary });
  });
}

/**
 * Closes a change made under the lock: its audit entry, in the same
 * transaction; the section's generation, which the watchers poll (and
 * when the active release changed, since when and by whom); and the
 * announcement on RELEASES_CHANNEL, delivered when the transaction
 * commits, and only then.
 */
export async function announce(sql: Sql, section: SectionId, entry: AuditInput, activeChanged: boolean): Promise<void> {
  await recordAudit(sql, { ...entry, section });
  if (activeChanged) {
    await sql.query('UPDATE release_sections SET generation = generation + 1, changed_at = now(), changed_by = $2 WHERE section = $1', [section, entry.actor]);
  } else {
    await sql.query('UPDATE release_sections SET generation = generation + 1 WHERE section = $1', [section]);
  }
  await sql.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, section]);
}

/** Pushes `releaseId` on the section's activation history: it becomes the active release. */
export async function pushActivation(sql: Sql, section: SectionId, releaseId: string, actor: string): Promise<void> {
  await sql.query('INSERT INTO release_activations (section, release_id, actor) VALUES ($1, $2, $3)', [section, releaseId, actor]);
}
