import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** One SQL statement at a time, with `$1` parameters: the part of both drivers the store uses. */
export interface Sql {
  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Several statements with no parameters (the migrations). */
  exec(text: string): Promise<void>;
}

/**
 * PostgreSQL, embedded or a server: the store runs the same SQL on both, so
 * the schema, the migrations and every query are written once.
 */
export interface Database extends Sql {
  readonly kind: 'embedded' | 'server';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The embedded PostgreSQL (PGlite): one process, one folder, no server to install. */
export async function openEmbeddedDatabase(folder: string): Promise<Database> {
  mkdirSync(folder, { recursive: true });
  const db = await PGlite.create(folder);
  const sqlOf = (runner: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    query: async <Row>(text: string, params?: readonly unknown[]) => (await runner.query<Row>(text, params ? [...params] : undefined)).rows,
    exec: async (text: string) => void (await runner.exec(text)),
  });
  return {
    kind: 'embedded',
    ...sqlOf(db),
    transaction: (work) => db.transaction((tx) => work(sqlOf(tx))),
    close: () => db.close(),
  };
}

/** A PostgreSQL server through node-postgres' pool. */
export function openServerDatabase(url: string, options: { poolSize?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    // A statement stuck behind a dead server must not hold the visitor's request for ever.
    query_timeout: 10000,
  });
  // An idle client whose server went away emits here; the next query reports it.
  pool.on('error', () => undefined);
  const query = async <Row>(runner: pg.Pool | pg.PoolClient, text: string, params?: readonly unknown[]) =>
    (await runner.query(text, params ? [...params] : undefined)).rows as Row[];

  return {
    kind: 'server',
    query: (text, params) => query(pool, text, params),
    exec: async (text) => void (await pool.query(text)),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work({
          query: (text, params) => query(client, text, params),
          exec: async (text) => void (await client.query(text)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is dropped, not reused.
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
