import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { MessageStore } from '../store/message-store';
import type { ContactMessage } from '../contact-message';

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);

function contact(key: string, overrides: Partial<ContactMessage> = {}): ContactMessage {
  return { name: 'Asha Rao', telephone: '+91 98765 43210', message: 'Please call me about a loan.', language: 'en', idempotencyKey: key, ...overrides };
}

const HERE = { address: '192.0.2.1' };

describe.each(KINDS)('the message store on the %s database', (kind) => {
  let database: TestDatabase;
  let store: MessageStore;

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    store = await MessageStore.open(await database.open());
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    database?.cleanUp();
  });

  beforeEach(async () => {
    await store.db.exec('TRUNCATE contact_messages, contact_outbox, contact_rate_hits, contact_message_audit');
  });

  it('stores a message and queues its delivery in the same step', async () => {
    const outcome = await store.submit(contact('key-00000001'), HERE);
    expect(outcome.kind).toBe('stored');
    const id = (outcome as { id: string }).id;
    const stored = await store.get(id);
    expect(stored).toMatchObject({ id, name: 'Asha Rao', language: 'en', delivery: { status: 'queued', attempts: 0 } });
    expect(await store.counts()).toEqual({ messages: 1, queued: 1, delivered: 0, failed: 0 });
  });

  it('answers the same id for the same key and body, and a conflict for another body', async () => {
    const first = await store.submit(contact('key-00000002'), HERE);
    expect(await store.submit(contact('key-00000002'), HERE)).toEqual({ kind: 'repeated', id: (first as { id: string }).id });
    expect(await store.submit(contact('key-00000002', { message: 'Something else' }), HERE)).toEqual({ kind: 'conflict' });
    expect((await store.counts()).messages).toBe(1);
  });

  it('stores one message when the same key arrives many times at once', async () => {
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.submit(contact('key-00000003'), HERE)));
    expect(outcomes.filter((outcome) => outcome.kind === 'stored')).toHaveLength(1);
    expect(new Set(outcomes.map((outcome) => (outcome as { id: string }).id)).size).toBe(1);
    expect((await store.counts()).messages).toBe(1);
  });

  it('limits new messages per address, answers repeats before the limit, and counts each address alone', async () => {
    const rateLimit = { max: 2, windowSeconds: 600 };
    expect((await store.submit(contact('limit-0001'), { ...HERE, rateLimit })).kind).toBe('stored');
    expect((await store.submit(contact('limit-0002'), { ...HERE, rateLimit })).kind).toBe('stored');
    const refused = await store.submit(contact('limit-0003'), { ...HERE, rateLimit });
    expect(refused).toEqual({ kind: 'rate-limited', retryAfterSeconds: expect.any(Number) });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(590);
    expect((await store.submit(contact('limit-0001'), { ...HERE, rateLimit })).kind).toBe('repeated');
    expect((await store.submit(contact('limit-0003'), { address: '192.0.2.2', rateLimit })).kind).toBe('stored');
  });

  it('lets concurrent requests from one address past the limit no further than its size', async () => {
    const rateLimit = { max: 3, windowSeconds: 600 };
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) => store.submit(contact(`burst-${String(index).padStart(4, '0')}`), { ...HERE, rateLimit })),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'stored')).toHaveLength(3);
  });

  it('hands each due delivery to one claimer at a time, and again after a failure', async () => {
    for (let index = 0; index < 6; index++) await store.submit(contact(`claim-${String(index).padStart(4, '0')}`), HERE);
    const [first, second] = await Promise.all([store.claimDeliveries(4, 60), store.claimDeliveries(4, 60)]);
    const ids = [...first!, ...second!].map((claimed) => claimed.message.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(await store.claimDeliveries(10, 60)).toEqual([]);

    const [one, two] = first!;
    await store.markDelivered(one!.message.id, ['webhook']);
    await store.markFailed(two!.message.id, { error: 'webhook answered 500', channelsDone: ['mail'], retryInSeconds: 0 });
    const again = await store.claimDeliveries(10, 60);
    expect(again.map((claimed) => [claimed.message.id, claimed.attempt, claimed.channelsDone])).toEqual([[two!.message.id, 2, ['mail']]]);

    await store.markFailed(two!.message.id, { error: 'webhook answered 500', channelsDone: ['mail'] });
    expect(await store.get(two!.message.id)).toMatchObject({ delivery: { status: 'failed', attempts: 2, lastError: 'webhook answered 500' } });
    expect(await store.get(one!.message.id)).toMatchObject({ delivery: { status: 'delivered', deliveredAt: expect.any(Date) } });
  });

  it('lists, deletes, and forgets messages older than the retention period', async () => {
    const kept = await store.submit(contact('keep-0001'), HERE);
    const old = await store.submit(contact('old-00001'), HERE);
    await store.db.query("UPDATE contact_messages SET received_at = now() - interval '181 days' WHERE id = $1", [(old as { id: string }).id]);
    expect((await store.list()).map((message) => message.idempotencyKey)).toEqual(['keep-0001', 'old-00001']);
    expect((await store.list({ since: new Date(Date.now() - 86_400_000) })).map((message) => message.idempotencyKey)).toEqual(['keep-0001']);

    expect(await store.deleteOlderThan(180)).toBe(1);
    expect(await store.get((old as { id: string }).id)).toBeUndefined();
    const lender = store.operator('lender');
    expect(await lender.delete((kept as { id: string }).id)).toBe(true);
    expect(await lender.delete((kept as { id: string }).id)).toBe(false);
    expect(await lender.delete('not-an-id')).toBe(false);
    expect(await store.counts()).toEqual({ messages: 0, queued: 0, delivered: 0, failed: 0 });
  });

  it("records each operator's read, export and deletion with the ids it touched, and nothing of the messages' text", async () => {
    const [one, two] = [await store.submit(contact('audit-0001', { name: 'Dewi' }), HERE), await store.submit(contact('audit-0002'), HERE)].map(
      (outcome) => (outcome as { id: string }).id,
    );
    const since = new Date(Date.now() - 60_000);
    expect(await store.operator('lender').list({})).toHaveLength(2);
    expect(await store.operator('local:priya').list({ since, export: 'csv' })).toHaveLength(2);
    expect((await store.operator('lender').get(one!))?.name).toBe('Dewi');
    expect(await store.operator('local:priya').delete(two!)).toBe(true);
    // The server's own reading is not an operator's.
    await store.list();
    await store.get(one!);

    const log = await store.accessLog();
    expect(log.map(({ actor, action, ids }) => [actor, action, [...ids].sort()])).toEqual([
      ['local:priya', 'message-delete', [two]],
      ['lender', 'message-read', [one]],
      ['local:priya', 'message-export', [one, two].sort()],
      ['lender', 'message-read', [one, two].sort()],
    ]);
    expect(log[2]!.detail).toMatch(new RegExp(`^exported 2 message\\(s\\) received since ${since.toISOString().replace(/\./g, '\\.')} as csv: `));
    expect(log[0]!.detail).toBe(`deleted 1 message: ${two}`);
    expect(JSON.stringify(log)).not.toMatch(/Dewi|Asha|call me/);
    // A deletion that finds nothing is recorded too, with no id.
    expect(await store.operator('lender').delete(two!)).toBe(false);
    expect((await store.accessLog({ limit: 1 }))[0]).toMatchObject({
      actor: 'lender',
      action: 'message-delete',
      ids: [],
      detail: `asked to delete ${two}, which is not stored`,
    });
  });
});
