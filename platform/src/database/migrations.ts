import type { Database } from './database';

/**
 * One package's numbered schema steps, kept in a table of its own so that
 * packages sharing the database number theirs independently. A step is
 * never edited once released: change the schema by adding the next one.
 */
export interface MigrationPlan {
  /** The table that records which steps ran (created when missing). */
  table: string;
  /** The advisory lock that lets one process at a time apply this plan: a constant of the package's own. */
  lock: number;
  /** The steps, in order; step n (from 1) is `steps[n - 1]`. */
  steps: readonly string[];
}

/** Applies the steps of `plan` not yet applied, in one transaction; safe when several servers start at once. */
export async function applyMigrations(db: Database, plan: MigrationPlan): Promise<void> {
  // The table name goes into SQL as an identifier, which takes no parameter.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(plan.table)) throw new Error(`${JSON.stringify(plan.table)} is not a table name`);
  await db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [plan.lock]);
    await sql.query(`CREATE TABLE IF NOT EXISTS ${plan.table} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const [row] = await sql.query<{ version: number }>(`SELECT coalesce(max(version), 0) AS version FROM ${plan.table}`);
    for (let version = (row?.version ?? 0) + 1; version <= plan.steps.length; version++) {
      await sql.exec(plan.steps[version - 1]!);
      await sql.query(`INSERT INTO ${plan.table} (version) VALUES ($1)`, [version]);
    }
  });
}
