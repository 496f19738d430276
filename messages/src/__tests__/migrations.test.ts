import { applyMigrations } from '@portico/platform/database';
import { freshTestDatabase, testDatabaseKinds } from '@portico/platform/testing';
import { migrate, MIGRATIONS } from '../store/migrations';

describe.each(testDatabaseKinds())('the %s database', (kind) => {
  const fresh = freshTestDatabase(kind);

  it("keeps a second package's numbered steps apart from the messages' own", async () => {
    const db = fresh.db();
    await migrate(db);
    const plan = { table: 'portico_test_migrations', lock: 1234, steps: ['CREATE TABLE test_one (n integer)'] };
    await applyMigrations(db, plan);
    await applyMigrations(db, { ...plan, steps: [...plan.steps, 'CREATE TABLE test_two (n integer)'] });
    // Applied once each: running the same plan again changes nothing.
    await applyMigrations(db, { ...plan, steps: [...plan.steps, 'CREATE TABLE test_two (n integer)'] });
    expect(await db.query('SELECT version FROM portico_test_migrations ORDER BY version')).toEqual([{ version: 1 }, { version: 2 }]);
    expect(await db.query('SELECT version FROM portico_migrations ORDER BY version')).toEqual(MIGRATIONS.map((_, index) => ({ version: index + 1 })));
    await expect(applyMigrations(db, { ...plan, table: 'bad name' })).rejects.toThrow('is not a table name');
  });
});
