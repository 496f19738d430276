import { createHmac } from 'node:crypto';
import { SIGNATURE_HEADER } from '@portico/platform/notices';
import { mailChannel, webhookChannel } from '../delivery/channels';
import { startDeliverer, type Deliverer } from '../delivery/deliverer';
import { MessageStore } from '../store/message-store';
import { anyTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { startSmtpSink } from '../testing/smtp-sink';
import { startWebhookReceiver } from '../testing/webhook-receiver';
import type { ContactMessage } from '../contact-message';
import { eventually } from '@portico/testing/eventually';
import { silentLogger } from '@portico/platform/logging';

const SECRET = 'webhook-secret-for-tests';

let database: TestDatabase;
let store: MessageStore;
const running: { stop(): Promise<void> | void }[] = [];

beforeAll(async () => {
  database = anyTestDatabase();
  store = await MessageStore.open(await database.open());
}, 60_000);

afterAll(async () => {
  await store?.close();
  database?.cleanUp();
});

beforeEach(async () => {
  await store.db.exec('TRUNCATE contact_messages, contact_outbox, contact_rate_hits');
});

afterEach(async () => {
  for (const thing of running.splice(0)) await thing.stop();
});

function contact(key: string, overrides: Partial<ContactMessage> = {}): ContactMessage {
  return {
    name: 'Budi Santoso',
    telephone: '+62 812 3456 7890',
    message: 'Saya ingin bertanya tentang pinjaman.',
    language: 'id',
    idempotencyKey: key,
    ...overrides,
  };
}

async function storeOne(key: string, overrides: Partial<ContactMessage> = {}): Promise<string> {
  const outcome = await store.submit(contact(key, overrides), { address: '192.0.2.1' });
  if (outcome.kind !== 'stored') throw new Error(`not stored: ${outcome.kind}`);
  return outcome.id;
}

function deliverer(options: Omit<Parameters<typeof startDeliverer>[0], 'store' | 'log'>): Deliverer {
  const started = startDeliverer({ store, log: silentLogger, pollMs: 20, retryDelaySeconds: () => 0.05, ...options });
  running.push(started);
  return started;
}

describe('delivery through the outbox', () => {
  it('sends each message once to the webhook, signed, and once by plain-text e-mail', async () => {
    const webhook = await startWebhookReceiver();
    const smtp = await startSmtpSink();
    running.push({ stop: webhook.close }, { stop: smtp.close });
    const ids = [await storeOne('deliver-0001'), await storeOne('deliver-0002', { name: 'Evil\r\nBcc: x@evil.example', message: '<b>not html</b>' })];
    deliverer({
      channels: [
        webhookChannel({ url: webhook.url, secret: SECRET }),
        mailChannel({ smtpUrl: smtp.url, from: 'portico@lender.example', to: 'contact@lender.example' }),
      ],
    });

    await eventually(async () => (await store.counts()).delivered === 2, { what: 'both deliveries', withinMs: 10_000 });
    expect(webhook.calls).toHaveLength(2);
    for (const call of webhook.calls) {
      const expected = `sha256=${createHmac('sha256', SECRET).update(call.body).digest('hex')}`;
      expect(call.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(expected);
      const body = JSON.parse(call.body) as { id: string; idempotencyKey: string };
      expect(call.headers['idempotency-key']).toBe(body.idempotencyKey);
      expect(ids).toContain(body.id);
    }
    expect(smtp.mails).toHaveLength(2);
    expect(smtp.mails[0]!.to).toEqual(['contact@lender.example']);
    const evil = smtp.mails.find((mail) => mail.raw.includes('Evil'))!;
    const [headers] = evil.raw.split('\r\n\r\n');
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).toMatch(/^Content-Type: text\/plain/m);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([['contact@lender.example'], ['contact@lender.example']]);
    expect(await store.get(ids[0]!)).toMatchObject({ delivery: { status: 'delivered', attempts: 1 } });
  });

  it('retries after the webhook answers 500, and sends the mail only once meanwhile', async () => {
    const webhook = await startWebhookReceiver((_, index) => (index < 2 ? 500 : 200));
    const smtp = await startSmtpSink();
    running.push({ stop: webhook.close }, { stop: smtp.close });
    const id = await storeOne('retry-00001');
    deliverer({
      channels: [
        webhookChannel({ url: webhook.url, secret: SECRET }),
        mailChannel({ smtpUrl: smtp.url, from: 'portico@lender.example', to: 'contact@lender.example' }),
      ],
    });

    await eventually(async () => (await store.get(id))?.delivery.status === 'delivered', { what: 'the delivery', withinMs: 10_000 });
    expect(webhook.calls).toHaveLength(3);
    expect(smtp.mails).toHaveLength(1);
    expect(await store.get(id)).toMatchObject({ delivery: { attempts: 3, lastError: null } });
  });

  it('marks a message failed after the last attempt, and keeps it readable', async () => {
    const webhook = await startWebhookReceiver(() => 500);
    running.push({ stop: webhook.close });
    const id = await storeOne('failed-0001');
    deliverer({ channels: [webhookChannel({ url: webhook.url, secret: SECRET })], maxAttempts: 3 });

    await eventually(async () => (await store.get(id))?.delivery.status === 'failed', { what: 'the last attempt', withinMs: 10_000 });
    expect(webhook.calls).toHaveLength(3);
    expect(await store.get(id)).toMatchObject({
      message: 'Saya ingin bertanya tentang pinjaman.',
      delivery: { status: 'failed', attempts: 3, lastError: 'webhook: the webhook answered 500' },
    });
  });

  it('keeps a message queued while the webhook cannot be reached', async () => {
    const id = await storeOne('unreachable-1');
    deliverer({ channels: [webhookChannel({ url: 'http://127.0.0.1:9/nothing-listens', secret: SECRET })], maxAttempts: 10 });
    await eventually(async () => ((await store.get(id))?.delivery.attempts ?? 0) >= 2, { what: 'two attempts', withinMs: 10_000 });
    expect(await store.get(id)).toMatchObject({ delivery: { status: 'queued', lastError: expect.stringContaining('webhook:') } });
  });
});
