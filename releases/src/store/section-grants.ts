import { defaultGrantOf, SECTION_IDS, type SectionGrant, type SectionId } from '@portico/contract/sections';
import type { Database, Sql } from '@portico/platform/database';
import { announce, lockedSection } from './section-lock';

/** The grants an integrator set, by section (sections never set are not here). */
export async function grantsIn(sql: Sql): Promise<Partial<Record<SectionId, SectionGrant>>> {
  const rows = await sql.query<{ section: SectionId; interactive: boolean }>('SELECT section, interactive FROM release_sections WHERE interactive IS NOT NULL');
  return Object.fromEntries(
    rows.filter((row) => (SECTION_IDS as readonly string[]).includes(row.section)).map((row) => [row.section, { interactive: row.interactive }]),
  );
}

/**
 * Whether each section may run script in the visitor's browser: the
 * integrator's decision, kept on the section's row, so a section added at
 * run time gets a value of its own the same way. Unset, a section has its
 * built-in grant (BUILT_IN_GRANTS).
 */
export class SectionGrants {
  constructor(private readonly db: Database) {}

  /** Every section's grant as the store holds it, the built-in one where none was set. */
  async all(): Promise<Record<SectionId, SectionGrant>> {
    const set = await grantsIn(this.db);
    return Object.fromEntries(SECTION_IDS.map((id) => [id, set[id] ?? defaultGrantOf(id)])) as Record<SectionId, SectionGrant>;
  }

  /**
   * Sets `section`'s grant, under its row lock, audited (`section-change`)
   * and announced to every server in the same transaction, as an activation
   * is: each serves the new grant at its next read of the store.
   */
  async set(section: SectionId, grant: SectionGrant, actor: string, note?: string): Promise<SectionGrant> {
    return lockedSection(this.db, section, async (sql) => {
      const [before] = await sql.query<{ interactive: boolean | null }>('SELECT interactive FROM release_sections WHERE section = $1', [section]);
      const was = before?.interactive ?? defaultGrantOf(section).interactive;
      await sql.query('UPDATE release_sections SET interactive = $2 WHERE section = $1', [section, grant.interactive]);
      const words = (interactive: boolean) => (interactive ? 'interactive (script in the browser)' : 'static (no script in the browser)');
      const detail = `${was === grant.interactive ? 'kept' : `from ${words(was)} to`} ${words(grant.interactive)}${note ? `: ${note}` : ''}`;
      await announce(sql, section, { actor, action: 'section-change', detail }, false);
      return { interactive: grant.interactive };
    });
  }
}
