import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedDatabase, openServerDatabase, type Database } from '../database/database';
import { postgresMissing, postgresRequired, startTestPostgres, type TestPostgres } from './test-postgres';

/** One of the two databases the store runs on, opened fresh for a test file. */
export interface TestDatabase {
  kind: 'embedded' | 'server';
  open(): Promise<Database>;
  /** The server's URL (DATABASE_URL), for the server kind. */
  url?: string;
  server?: TestPostgres;
  cleanUp(): void;
}

export function embeddedTestDatabase(): TestDatabase {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-pglite-'));
  return {
    kind: 'embedded',
    open: () => openEmbeddedDatabase(folder),
    cleanUp: () => rmSync(folder, { recursive: true, force: true }),
  };
}

export function serverTestDatabase(): TestDatabase {
  const server = startTestPostgres();
  return { kind: 'server', url: server.url, server, open: () => Promise.resolve(openServerDatabase(server.url)), cleanUp: () => server.destroy() };
}

/**
 * Whether this machine can run the PostgreSQL-server tests; in CI it must,
 * so there a missing server fails the run instead of skipping it.
 */
export function serverTestsRun(): boolean {
  const missing = postgresMissing();
  if (missing && postgresRequired()) throw new Error(`CI=true and the PostgreSQL tests cannot run: ${missing}`);
  return missing === undefined;
}

/** The server when this machine has one (it starts in a second), else the embedded database. */
export function anyTestDatabase(): TestDatabase {
  return serverTestsRun() ? serverTestDatabase() : embeddedTestDatabase();
}

/** The database kinds a store's tests run on here: the embedded one, and a server where this machine runs one (in CI, always). */
export function testDatabaseKinds(): readonly TestDatabase['kind'][] {
  return serverTestsRun() ? ['embedded', 'server'] : ['embedded'];
}

/**
 * A fresh database of `kind` for the tests of the `describe` block this is
 * called in: opened before them, closed and removed after them. `db()` is
 * the open database.
 */
export function freshTestDatabase(kind: TestDatabase['kind']): { db(): Database } {
  let database: TestDatabase | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    db = await database.open();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    database?.cleanUp();
  });
  return {
    db() {
      if (!db) throw new Error('the test database is not open: call db() inside a test');
      return db;
    },
  };
}
