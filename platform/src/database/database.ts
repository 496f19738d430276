import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

// Each driver is required when its kind of database is opened, not when the
// server starts: a server runs one of them, and loading the other cost
// 40-130 ms of every start, depending on the machine's load (issue 47).
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (above) */
const embeddedDriver = () => require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
const serverDriver = () => require('pg') as typeof import('pg');
/* eslint-enable @typescript-eslint/no-require-imports */

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
  /**
   * Hears `NOTIFY channel` from every process on the database. A listening
   * connection can die with its server (a restart): `onLost` is called once
   * when it does (not when closed), and `alive` turns false; the caller
   * listens again, and catches up by reading, since a notification sent
   * while nobody listened is gone.
   */
  listen(channel: string, onNotify: (payload: string) => void, onLost?: () => void): Promise<Listening>;
  /** Its connections now, for the metrics. */
  stats(): DatabaseStats;
  close(): Promise<void>;
}

/** What a database's connections are doing now. */
export interface DatabaseStats {
  /** A server's pool (node-postgres): its connections, those idle, and the queries waiting for one; the embedded database has none. */
  pool?: { total: number; idle: number; waiting: number };
  /** The LISTEN connections open and alive (the release watch's, the console's events'). */
  listening: number;
}

/** One `LISTEN` on one channel. */
export interface Listening {
  close(): Promise<void>;
  /** False once the connection it listens on is gone; then nothing more is heard. */
  readonly alive: boolean;
}

/** A channel name goes into `LISTEN` as an identifier, which takes no parameter. */
function channelName(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`${JSON.stringify(channel)} is not a channel name (lower-case letters, digits and _)`);
  return channel;
}

/**
 * PostgreSQL's buffer pool inside the embedded database: 16 MB, not its
 * 128 MB default, which PGlite's WebAssembly memory holds in the serving
 * process (resident 333 MB against 175-206 MB for the database alone here,
 * `npm run measure:start` for the whole server). A site's tables (releases,
 * health by hour, messages) are a few MB; a deployment that outgrows it runs
 * PostgreSQL (DATABASE_URL).
 */
const EMBEDDED_SETTINGS = ['shared_buffers=16MB'];

/** The embedded PostgreSQL (PGlite): one process, one folder, no server to install. */
export async function openEmbeddedDatabase(folder: string): Promise<Database> {
  mkdirSync(folder, { recursive: true });
  const db = await embeddedDriver().PGlite.create(folder, { postgresqlconf: EMBEDDED_SETTINGS });
  const listens = new Listens();
  const sqlOf = (runner: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    query: async <Row>(text: string, params?: readonly unknown[]) => (await runner.query<Row>(text, params ? [...params] : undefined)).rows,
    exec: async (text: string) => void (await runner.exec(text)),
  });
  return {
    kind: 'embedded',
    ...sqlOf(db),
    transaction: (work) => db.transaction((tx) => work(sqlOf(tx))),
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channelName(channel), onNotify);
      let alive = true;
      return listens.add({
        get alive() {
          // One process holds the embedded database: its notifications are lost only when it closes.
          return alive && !db.closed;
        },
        async close() {
          if (!alive) return;
          alive = false;
          if (!db.closed) await unlisten();
        },
      });
    },
    stats: () => ({ listening: listens.alive() }),
    close: () => db.close(),
  };
}

/** The LISTENs a database has given out, held until closed, so the metrics can count the live ones. */
class Listens {
  private readonly open = new Set<Listening>();

  add(listening: Listening): Listening {
    this.open.add(listening);
    const open = this.open;
    return {
      get alive() {
        return listening.alive;
      },
      async close() {
        open.delete(listening);
        await listening.close();
      },
    };
  }

  alive(): number {
    let count = 0;
    for (const listening of this.open) if (listening.alive) count += 1;
    return count;
  }
}

/** A PostgreSQL server through node-postgres' pool. */
export function openServerDatabase(url: string, options: { poolSize?: number } = {}): Database {
  const listens = new Listens();
  const { Pool, Client } = serverDriver();
  const pool = new Pool({
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
    async listen(channel, onNotify, onLost) {
      const name = channelName(channel);
      // Its own connection, outside the pool: a LISTEN lasts as long as the
      // session, and a pooled client would be handed to other queries.
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      let alive = true;
      let listened = false;
      const gone = () => {
        const wasAlive = alive;
        alive = false;
        // Told once, and only about a LISTEN that was in place: a failed start is the caller's error.
        if (wasAlive && listened) onLost?.();
      };
      client.on('error', gone);
      client.on('end', gone);
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${name}`);
        if (!alive) throw new Error('the listening connection closed as it started');
        listened = true;
      } catch (error) {
        gone();
        await client.end().catch(() => undefined);
        throw error;
      }
      return listens.add({
        get alive() {
          return alive;
        },
        async close() {
          // Closed on purpose: not lost.
          listened = false;
          gone();
          await client.end().catch(() => undefined);
        },
      });
    },
    stats: () => ({ pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }, listening: listens.alive() }),
    close: () => pool.end(),
  };
}
