import type { SectionGrant, SectionId } from '@portico/contract/sections';
import type { Database, Sql } from '@portico/platform/database';
import { catalogueIn, type SectionCatalogue } from './section-catalogue';

/**
 * The grants set in the store, by section: a built-in section's once an
 * integrator set it, an added section's always (it is given one when it is
 * added). A built-in section not here has config.json's or its built-in one.
 * Retired sections are not here.
 */
export async function grantsIn(sql: Sql): Promise<Partial<Record<SectionId, SectionGrant>>> {
  const rows = await sql.query<{ section: SectionId; interactive: boolean }>(
    'SELECT section, interactive FROM release_sections WHERE interactive IS NOT NULL AND retired_at IS NULL',
  );
  return Object.fromEntries(rows.map((row) => [row.section, { interactive: row.interactive }]));
}

/**
 * Whether each section may run script in the visitor's browser: the
 * integrator's decision, kept on the section's entry (section-catalogue.ts),
 * a built-in section's built-in grant until set.
 */
export class SectionGrants {
  constructor(
    private readonly db: Database,
    private readonly catalogue: SectionCatalogue,
  ) {}

  /** Every live section's grant as the store holds it, the built-in one where none was set. */
  async all(): Promise<Record<SectionId, SectionGrant>> {
    return Object.fromEntries((await catalogueIn(this.db)).map((entry) => [entry.id, { interactive: entry.interactive }])) as Record<SectionId, SectionGrant>;
  }

  /**
   * Sets `section`'s grant, under its row lock, audited (`section-change`)
   * and announced to every server in the same transaction, as an activation
   * is: each serves the new grant at its next read of the store.
   */
  async set(section: SectionId, grant: SectionGrant, actor: string, note?: string): Promise<SectionGrant> {
    const entry = await this.catalogue.change(section, { interactive: grant.interactive, note }, actor);
    return { interactive: entry.interactive };
  }
}
