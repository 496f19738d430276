import { freshTestDatabase, testDatabaseKinds } from '../testing/databases';
import { eventually } from '@portico/testing/eventually';

describe.each(testDatabaseKinds())('the %s database', (kind) => {
  const fresh = freshTestDatabase(kind);

  it('hears a NOTIFY committed on its channel, and nothing once it stopped listening', async () => {
    const db = fresh.db();
    const heard: string[] = [];
    const listening = await db.listen('portico_test', (payload) => heard.push(payload));
    expect(listening.alive).toBe(true);
    await db.transaction(async (sql) => {
      await sql.query("SELECT pg_notify('portico_test', 'inside a transaction')");
      await sql.query("SELECT pg_notify('another_channel', 'not for us')");
    });
    await eventually(() => heard.length > 0, { what: 'the notification', withinMs: 5_000 });
    expect(heard).toEqual(['inside a transaction']);

    await listening.close();
    expect(listening.alive).toBe(false);
    await db.query("SELECT pg_notify('portico_test', 'after close')");
    // Time passing is the behaviour: a notification arrives within milliseconds (heard above, the
    // other side), so none in 200 ms after the close says the closed listener hears nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['inside a transaction']);
  });

  it('counts its live LISTENs and, on a server, its pool for the metrics', async () => {
    const db = fresh.db();
    const before = db.stats().listening;
    const listening = await db.listen('portico_counted', () => undefined);
    expect(db.stats().listening).toBe(before + 1);
    await listening.close();
    expect(db.stats().listening).toBe(before);
    await db.query('SELECT 1');
    const pool = db.stats().pool;
    if (kind === 'server') expect(pool).toEqual({ total: expect.any(Number), idle: expect.any(Number), waiting: 0 });
    else expect(pool).toBeUndefined();
    if (pool) expect(pool.total).toBeGreaterThanOrEqual(1);
  });

  it('refuses a channel name that is not an identifier, before touching the database', async () => {
    const db = fresh.db();
    await expect(db.listen('x; DROP TABLE y', () => undefined)).rejects.toThrow('is not a channel name');
  });

  if (kind === 'server') {
    it('says a listening connection the server dropped is no longer alive, and tells the listener once; a close is not a loss', async () => {
      const db = fresh.db();
      let lost = 0;
      const listening = await db.listen(
        'portico_dropped',
        () => undefined,
        () => lost++,
      );
      await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN portico_dropped'");
      await eventually(() => !listening.alive, { what: 'the listener lost', withinMs: 5_000 });
      await eventually(() => lost > 0, { what: 'the loss reported', withinMs: 5_000 });
      await listening.close();
      expect(lost).toBe(1);

      let closedLost = 0;
      const closing = await db.listen(
        'portico_closed',
        () => undefined,
        () => closedLost++,
      );
      await closing.close();
      expect(closing.alive).toBe(false);
      expect(closedLost).toBe(0);
    });
  }
});
