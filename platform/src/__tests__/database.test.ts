import { freshTestDatabase, testDatabaseKinds } from '../testing/databases';

/** Resolves with what `take` returns once it returns something, or rejects after `ms`. */
async function within<T>(ms: number, take: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = take();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
    await within(5000, () => (heard.length > 0 ? heard : undefined));
    expect(heard).toEqual(['inside a transaction']);

    await listening.close();
    expect(listening.alive).toBe(false);
    await db.query("SELECT pg_notify('portico_test', 'after close')");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['inside a transaction']);
  });

  it('refuses a channel name that is not an identifier, before touching the database', async () => {
    const db = fresh.db();
    await expect(db.listen('x; DROP TABLE y', () => undefined)).rejects.toThrow('is not a channel name');
  });

  if (kind === 'server') {
    it('says a listening connection the server dropped is no longer alive, and tells the listener once; a close is not a loss', async () => {
      const db = fresh.db();
      let lost = 0;
      const listening = await db.listen('portico_dropped', () => undefined, () => lost++);
      await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN portico_dropped'");
      await within(5000, () => (listening.alive ? undefined : true));
      await within(5000, () => (lost > 0 ? true : undefined));
      await listening.close();
      expect(lost).toBe(1);

      let closedLost = 0;
      const closing = await db.listen('portico_closed', () => undefined, () => closedLost++);
      await closing.close();
      expect(closing.alive).toBe(false);
      expect(closedLost).toBe(0);
    });
  }
});
