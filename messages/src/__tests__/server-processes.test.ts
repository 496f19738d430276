import { openServerDatabase, type Database } from '@portico/platform/database';
import { serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { formBody, postContact, type Answer } from '../testing/http-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import { startWebhookReceiver, type ReceivedCall } from '../testing/webhook-receiver';
import { PROCESS_START_MS } from '@portico/testing/processes';
import { eventually } from '@portico/testing/eventually';

/**
 * Real server processes on one PostgreSQL server: two instances behaving as
 * one site, a SIGKILL with messages queued, and the database going away.
 */
const describeOnServer = serverTestsRun() ? describe : describe.skip;

const SECRET = 'two-instances-secret';

/** Runs `tasks` with at most `limit` at once, keeping their order in the results. */
async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const deliveredIds = (calls: ReceivedCall[]) => calls.map((call) => (JSON.parse(call.body) as { id: string }).id);

describeOnServer('server processes sharing one PostgreSQL server', () => {
  let database: TestDatabase;
  let db: Database;
  const processes: ServerProcess[] = [];

  const count = async (sql: string) => (await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${sql}`))[0]!.n;

  beforeAll(() => {
    database = serverTestDatabase();
    db = openServerDatabase(database.url!);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    database?.cleanUp();
  });

  afterEach(async () => {
    for (const server of processes.splice(0)) await server.stop();
  });

  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess({
      DATABASE_URL: database.url!,
      PORTICO_CONTACT_RATE_LIMIT: '0',
      PORTICO_WEBHOOK_SECRET: SECRET,
      PORTICO_DELIVERY_RETRY_SECONDS: '1',
      ...env,
    });
    processes.push(server);
    return server;
  };

  it(
    'stores exactly the unique messages of 200 posted over two instances, and delivers each once',
    async () => {
      const webhook = await startWebhookReceiver();
      try {
        const [one, two] = await Promise.all([start({ PORTICO_WEBHOOK_URL: webhook.url }), start({ PORTICO_WEBHOOK_URL: webhook.url })]);
        // 150 messages, then 50 of them again with the same key and body, each
        // repeat sent to the other instance than its first try.
        const unique = Array.from({ length: 150 }, (_, index) => `two-instances-${String(index).padStart(4, '0')}`);
        const repeats = unique.filter((_, index) => index % 3 === 0);
        const sends = [
          ...unique.map((key, index) => ({ key, server: index % 2 ? one! : two! })),
          ...repeats.map((key, index) => ({ key, server: index % 2 ? two! : one! })),
        ];
        const answers: Answer[] = await inParallel(
          sends.map(
            ({ key, server }) =>
              () =>
                postContact(server.base, formBody(key, { message: `Message ${key}` })),
          ),
          16,
        );

        const statuses = answers.map((answer) => answer.status);
        expect(statuses.filter((status) => status === 201)).toHaveLength(150);
        expect(statuses.filter((status) => status === 200)).toHaveLength(50);
        const idOf = new Map<string, string>();
        sends.forEach(({ key }, index) => {
          const id = answers[index]!.json().id as string;
          expect(idOf.get(key) ?? id).toBe(id);
          idOf.set(key, id);
        });
        expect(await count('contact_messages')).toBe(150);

        await eventually(async () => (await count("contact_outbox WHERE status = 'delivered'")) === 150, { what: '150 deliveries', withinMs: 20_000 });
        // Time passing is the behaviour: no second delivery of any message. The one delivery each
        // arrived (awaited above, the other side); half a second more is time for a repeat to show.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const ids = deliveredIds(webhook.calls);
        expect(ids).toHaveLength(150);
        expect(new Set(ids)).toEqual(new Set(idOf.values()));
        process.stderr.write(
          `two-instance test: 200 posted over 2 instances, 150 stored (201), 50 repeats answered 200, ${ids.length} webhook calls for ${new Set(ids).size} messages\n`,
        );
      } finally {
        await webhook.close();
      }
    },
    PROCESS_START_MS + 60_000,
  );

  it(
    'delivers every stored message after a SIGKILL with deliveries in flight and more queued',
    async () => {
      await db.exec('TRUNCATE contact_messages, contact_outbox, contact_rate_hits');
      // The first webhook holds every call for 5 s: the server dies before any delivery is recorded.
      const slow = await startWebhookReceiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 5000).unref()));
      const fast = await startWebhookReceiver();
      try {
        const server = await start({ PORTICO_WEBHOOK_URL: slow.url, PORTICO_DELIVERY_LEASE_SECONDS: '2' });
        const keys = Array.from({ length: 40 }, (_, index) => `killed-${String(index).padStart(4, '0')}`);
        const answers = await inParallel(
          keys.map((key) => () => postContact(server.base, formBody(key))),
          8,
        );
        expect(answers.map((answer) => answer.status)).toEqual(keys.map(() => 201));
        await eventually(() => slow.calls.length > 0, { what: 'a delivery in flight', withinMs: 10_000 });
        server.child.kill('SIGKILL');
        await server.exited;
        const inFlight = slow.calls.length;
        expect(await count('contact_messages')).toBe(40);
        expect(await count("contact_outbox WHERE status = 'delivered'")).toBe(0);

        await start({ PORTICO_WEBHOOK_URL: fast.url, PORTICO_DELIVERY_LEASE_SECONDS: '2' });
        await eventually(async () => (await count("contact_outbox WHERE status = 'delivered'")) === 40, {
          what: 'every delivery after the restart',
          withinMs: 20_000,
        });
        const ids = deliveredIds(fast.calls);
        expect(new Set(ids).size).toBe(40);
        expect(ids).toHaveLength(40);
        // What the lender saw twice: the calls in flight at the kill, which carry the same Idempotency-Key.
        process.stderr.write(`kill test: 40 stored, 40 delivered after the restart, ${inFlight} had been in flight at the SIGKILL\n`);
      } finally {
        await slow.close();
        await fast.close();
      }
    },
    PROCESS_START_MS + 60_000,
  );

  it(
    'answers 503 while the database is down, half-stores nothing, and stores the retry once it is back',
    async () => {
      await db.exec('TRUNCATE contact_messages, contact_outbox, contact_rate_hits');
      const server = await start({});
      database.server!.stop();
      try {
        const down = await postContact(server.base, formBody('while-down-0001'));
        expect(down.status).toBe(503);
      } finally {
        database.server!.start();
      }
      const retry = await postContact(server.base, formBody('while-down-0001'));
      expect(retry.status).toBe(201);
      expect(await count('contact_messages')).toBe(1);
      expect(await count('contact_outbox')).toBe(1);
    },
    PROCESS_START_MS + 60_000,
  );
});
