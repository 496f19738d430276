import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startContactService, type ContactService } from '../contact-service';
import type { ContactEndpoint } from '../http/contact-routes';
import { CLIENTS_PER_BLOCK } from '../http/client-network';
import { directOrigin } from '../testing/direct-origin';
import { contactSettings } from '../settings';
import { serveApi } from '../testing/api-server';
import { formBody, postContact, send } from '../testing/http-client';
import { linesLogger } from '@portico/platform/testing';

const HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" };
const folder = mkdtempSync(path.join(tmpdir(), 'portico-endpoint-'));
const lines: string[] = [];
let service: ContactService;
let api: Awaited<ReturnType<typeof serveApi>>;
let base: string;
let keys = 0;
/** A fresh idempotency key per message, as the form makes one. */
const newKey = () => `endpoint-${String(++keys).padStart(6, '0')}`;

beforeAll(async () => {
  service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: directOrigin,
    log: linesLogger((line) => lines.push(line)),
  });
  // The routes say what they did on the request's logger (its reqId), which the tests read as lines.
  api = await serveApi(service, { headers: HEADERS, log: linesLogger((line) => lines.push(line)) });
  base = api.base;
}, 60_000);

afterAll(async () => {
  await api?.close();
  await service?.close();
  rmSync(folder, { recursive: true, force: true });
});

const stored = async () => (await service.store.counts()).messages;

describe('POST /api/contact', () => {
  it('answers 201 with the id once the message is stored, as JSON with the security headers', async () => {
    const answer = await postContact(base, formBody('first-message-1'));
    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBe(HEADERS['Content-Security-Policy']);
    const { id } = answer.json();
    expect(Object.keys(answer.json())).toEqual(['id']);
    expect(await service.store.get(id as string)).toMatchObject({ name: 'Asha Rao', message: 'Please call me about a loan.', delivery: { status: 'queued' } });
  });

  it('answers 200 with the same id for the same key and body, and 409 for the same key with another body', async () => {
    const key = newKey();
    const first = await postContact(base, formBody(key));
    const before = await stored();
    const again = await postContact(base, formBody(key));
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(first.json());
    const other = await postContact(base, formBody(key, { message: 'A different message' }));
    expect(other.status).toBe(409);
    expect(other.json()).toEqual({ error: expect.any(String) });
    expect(await stored()).toBe(before);
  });

  it.each([
    ['name', { name: undefined }],
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 42 }],
    ['name', { name: ['Asha'] }],
    ['name', { name: { first: 'Asha' } }],
    ['name', { name: 'x'.repeat(201) }],
    ['telephone', { telephone: undefined }],
    ['telephone', { telephone: '9'.repeat(41) }],
    ['telephone', { telephone: null }],
    ['message', { message: '' }],
    ['message', { message: 'm'.repeat(5001) }],
    ['message', { message: 'nul \u0000 inside' }],
    ['message', { message: 'half a pair \ud83d' }],
    ['language', { language: undefined }],
    ['language', { language: 'fr' }],
    ['language', { language: 1 }],
    ['idempotencyKey', { idempotencyKey: undefined }],
    ['idempotencyKey', { idempotencyKey: 'short' }],
    ['idempotencyKey', { idempotencyKey: 'k'.repeat(101) }],
    ['idempotencyKey', { idempotencyKey: 'has spaces in it' }],
    ['idempotencyKey', { idempotencyKey: 12345678 }],
  ])('answers 400 naming %s for %j, and stores nothing', async (field, overrides) => {
    const before = await stored();
    const answer = await postContact(base, formBody(newKey(), overrides));
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ error: expect.any(String), field });
    expect(await stored()).toBe(before);
  });

  it('counts the limits in characters, not bytes', async () => {
    const answer = await postContact(base, formBody(newKey(), { name: '😀'.repeat(200), message: 'ग'.repeat(5000), telephone: '٠'.repeat(40) }));
    expect(answer.status).toBe(201);
    const overLimit = await postContact(base, formBody(newKey(), { name: '😀'.repeat(201) }));
    expect(overLimit.json()).toEqual({ error: 'name is 201 characters long; at most 200 are accepted', field: 'name' });
  });

  it('never echoes what was typed in an error', async () => {
    const answer = await postContact(base, formBody(newKey(), { name: `<script>alert(1)</script>${'x'.repeat(300)}` }));
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain('<script>');
  });

  it.each([
    ['over 64 KB', 'x'.repeat(64 * 1024)],
    ['1 MB', 'x'.repeat(1024 * 1024)],
  ])('answers 413 for a body of %s, and stores nothing', async (_, message) => {
    const before = await stored();
    const answer = await postContact(base, formBody(newKey(), { message }));
    expect(answer.status).toBe(413);
    // Refused by the root plugin's one parser and error handler (httpRoot): JSON, with the headers its onSend adds to every answer.
    expect(typeof (answer.json() as { error: unknown }).error).toBe('string');
    expect(answer.headers['permissions-policy']).toContain('camera=()');
    expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    expect(await stored()).toBe(before);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['JSON in another charset', 'application/json; charset=utf-16'],
    ['no type at all', ''],
  ])('answers 415 for %s', async (_, type) => {
    const answer = await postContact(base, formBody(newKey()), { 'Content-Type': type });
    expect(answer.status).toBe(415);
  });

  it('accepts application/json with charset=utf-8', async () => {
    expect((await postContact(base, formBody(newKey()), { 'Content-Type': 'application/json; charset=UTF-8' })).status).toBe(201);
  });

  it.each([
    ['missing', undefined],
    ['another site', 'https://evil.example'],
    ['another port', 'http://127.0.0.1:1'],
    ['null (a sandboxed frame)', 'null'],
    ['with a path', `ORIGIN/contact`],
  ])('answers 403 when Origin is %s, and stores nothing', async (_, origin) => {
    const before = await stored();
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (origin) headers.Origin = origin.replace('ORIGIN', base);
    const answer = await send(`${base}/api/contact`, { headers, body: JSON.stringify(formBody(newKey())) });
    expect(answer.status).toBe(403);
    expect(await stored()).toBe(before);
  });

  it.each([
    ['invalid UTF-8', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]), undefined],
    ['not JSON', '{"name": "Asha",', undefined],
    ['an array', '[1, 2, 3]', undefined],
    ['a string', '"hello"', undefined],
    ['deeply nested JSON', `${'['.repeat(20000)}${']'.repeat(20000)}`, undefined],
    [
      'deep JSON in a field',
      `{"name": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}, ${JSON.stringify(formBody('deep-key-0001')).slice(1).replace('"name":"Asha Rao",', '')}`,
      'name',
    ],
    ['a __proto__ key', `{"__proto__": {"polluted": true}, ${JSON.stringify(formBody('proto-key-001')).slice(1)}`, undefined],
    ['an unknown key', JSON.stringify({ ...formBody('unknown-key-01'), admin: true }), undefined],
  ])('answers 400 for %s, and stores nothing', async (_, body, field) => {
    const before = await stored();
    const answer = await postContact(base, body);
    expect(answer.status).toBe(400);
    expect(answer.json().field).toBe(field);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await stored()).toBe(before);
  });

  it('answers 201 of the same shape to a filled honeypot, stores nothing and logs it', async () => {
    const before = await stored();
    const answer = await postContact(base, formBody(newKey(), { website: 'http://spam.example' }));
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.json())).toEqual(['id']);
    expect(await stored()).toBe(before);
    expect(lines).toContainEqual(expect.stringContaining('hidden field was filled'));
  });

  it('accepts an empty honeypot, as the form sends it', async () => {
    expect((await postContact(base, formBody(newKey(), { website: '' }))).status).toBe(201);
  });

  it('answers 405 to other methods and 404 to other /api/ paths', async () => {
    const get = await send(`${base}/api/contact`, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await send(`${base}/api/other`, { method: 'GET' })).status).toBe(404);
  });
});

describe('POST /api/contact over the rate limit, and with the store down', () => {
  /** An endpoint on the same store, with its own limit and the client address given. */
  async function endpoint(options: { address: string; store?: ContactEndpoint['store'] }) {
    return serveApi(
      {
        endpoint: {
          store: options.store ?? service.store,
          requestOrigin: (req) => ({ origin: `http://${req.headers.host}`, address: options.address }),
          rateLimit: { max: 2, windowSeconds: 600 },
        },
      },
      { headers: HEADERS, log: linesLogger((line) => lines.push(line)) },
    );
  }

  it('answers 429 with Retry-After past the limit, and still 200 to a repeat of a stored message', async () => {
    const limited = await endpoint({ address: '198.51.100.7' });
    try {
      const firstKey = newKey();
      expect((await postContact(limited.base, formBody(firstKey))).status).toBe(201);
      expect((await postContact(limited.base, formBody(newKey()))).status).toBe(201);
      const refused = await postContact(limited.base, formBody(newKey()));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
      expect((await postContact(limited.base, formBody(firstKey))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('counts an IPv6 client by its /64, also behind a trusted proxy, and an IPv4 client by its address', async () => {
    const endpoint: ContactEndpoint = {
      store: service.store,
      // The last X-Forwarded-For hop, as the server reads it behind its trusted proxy (server/src/request-origin.ts, tested there).
      requestOrigin: (req) => ({
        origin: `http://${String(req.headers['x-forwarded-host'])}`,
        address: String(req.headers['x-forwarded-for']).split(',').at(-1)!.trim(),
      }),
      rateLimit: { max: 2, windowSeconds: 600 },
    };
    const proxied = await serveApi({ endpoint }, { headers: HEADERS });
    const from = (address: string) =>
      postContact(proxied.base, formBody(newKey()), { 'X-Forwarded-For': `203.0.113.250, ${address}`, 'X-Forwarded-Host': new URL(proxied.base).host });
    try {
      const statuses = async (addresses: string[]) => {
        const answers: number[] = [];
        for (const address of addresses) answers.push((await from(address)).status);
        return answers;
      };
      // Three addresses of one /64: a new address is not a new budget.
      expect(await statuses(['2001:db8:77:1::1', '2001:db8:77:1::2', '2001:db8:77:1:ffff::3'])).toEqual([201, 201, 429]);
      // The next /64 is another client.
      expect(await statuses(['2001:db8:77:2::1'])).toEqual([201]);
      // IPv4 stays per address (carrier-grade NAT), as documented.
      expect(await statuses(['198.51.100.20', '198.51.100.20', '198.51.100.20', '198.51.100.21'])).toEqual([201, 201, 429, 201]);
    } finally {
      await proxied.close();
    }
  });

  it(`bounds the /64s of one IPv6 /48 together at ${CLIENTS_PER_BLOCK} clients' budgets, another /48 untouched`, async () => {
    const endpoint: ContactEndpoint = {
      store: service.store,
      requestOrigin: (req) => ({ origin: `http://${req.headers.host}`, address: String(req.headers['x-test-from']) }),
      rateLimit: { max: 2, windowSeconds: 600 },
    };
    const served = await serveApi({ endpoint }, { headers: HEADERS });
    const from = async (address: string) => (await postContact(served.base, formBody(newKey()), { 'X-Test-From': address })).status;
    try {
      // Each /64 within its own budget of 2; the /48 as a whole stops at 20.
      const answers: number[] = [];
      for (let subnet = 1; subnet <= CLIENTS_PER_BLOCK + 1; subnet++) for (const host of [1, 2]) answers.push(await from(`2001:db8:78:${subnet}::${host}`));
      expect(answers.filter((status) => status === 201)).toHaveLength(2 * CLIENTS_PER_BLOCK);
      expect(answers.slice(2 * CLIENTS_PER_BLOCK)).toEqual([429, 429]);
      // Another /48, and IPv4, are budgets of their own.
      expect(await from('2001:db8:79:1::1')).toBe(201);
      expect(await from('198.51.100.30')).toBe(201);
    } finally {
      await served.close();
    }
  });

  it('answers 408 and closes the connection when the body trickles in slower than its time', async () => {
    const endpoint: ContactEndpoint = {
      store: service.store,
      requestOrigin: (req) => ({ origin: `http://${req.headers.host}`, address: '198.51.100.9' }),
      bodyTimeMs: 300,
    };
    const slow = await serveApi({ endpoint }, { headers: HEADERS });
    const before = await stored();
    try {
      const { host } = new URL(slow.base);
      const body = JSON.stringify(formBody(newKey()));
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(slow.base).port) });
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.write(
        `POST /api/contact HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${slow.base}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // One byte every 50 ms: the whole body would take several seconds.
      let sent = 0;
      const trickle = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body[sent++]!);
      }, 50);
      await new Promise((resolve) => socket.once('close', resolve));
      clearInterval(trickle);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/^Connection: close/im);
      expect(sent).toBeLessThan(body.length);
      expect(await stored()).toBe(before);
    } finally {
      await slow.close();
    }
  });

  it('answers 503 when the store cannot be reached', async () => {
    const down = await endpoint({
      address: '198.51.100.8',
      store: { submit: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) },
    });
    try {
      const answer = await postContact(down.base, formBody(newKey()));
      expect(answer.status).toBe(503);
      expect(answer.json()).toEqual({ error: expect.any(String) });
      expect(lines).toContainEqual(expect.stringContaining('ECONNREFUSED'));
    } finally {
      await down.close();
    }
  });
});
