import { existsSync } from 'node:fs';
import path from 'node:path';
import { openServerDatabase } from '../database/database';
import { serverTestsRun } from '../testing/databases';
import { POSTGRES_TEMPLATE_ENV, startTestPostgres, type TestPostgres } from '../testing/test-postgres';

// The run's PostgreSQL cluster (jest's global setup) is what a test server's
// cluster is copied from, instead of an initdb per server.
const describeWithServer = serverTestsRun() ? describe : describe.skip;

describeWithServer('test servers from the run template', () => {
  const servers: TestPostgres[] = [];
  afterAll(() => {
    for (const server of servers) server.destroy();
  });

  /** The cluster's system identifier: initdb draws a new one for each cluster; a copy keeps its template's. */
  async function identifierAndTables(server: TestPostgres, create?: string) {
    const db = await openServerDatabase(server.url);
    try {
      if (create) await db.exec(`CREATE TABLE ${create} (id int)`);
      const [{ id }] = (await db.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')) as [{ id: string }];
      const tables = await db.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
      return { id, tables: tables.map(({ name }) => name) };
    } finally {
      await db.close();
    }
  }

  test("jest's run made a template, and two servers start as copies of it, each a cluster of its own", async () => {
    expect(existsSync(path.join(process.env[POSTGRES_TEMPLATE_ENV] ?? '', 'PG_VERSION'))).toBe(true);
    servers.push(startTestPostgres(), startTestPostgres());
    const first = await identifierAndTables(servers[0]!, 'written_here');
    const second = await identifierAndTables(servers[1]!);
    // Copies of one cluster (two initdbs would differ here)…
    expect(second.id).toBe(first.id);
    // …and what one server writes, the other does not have.
    expect(first.tables).toEqual(['written_here']);
    expect(second.tables).toEqual([]);
  }, 60_000);
});
