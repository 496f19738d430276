import Fastify, { type FastifyInstance } from 'fastify';
import { COMMON_HEADERS, DATA_CSP, STRICT_TRANSPORT_SECURITY, SUBRESOURCE_HEADERS } from '../common-headers';
import { HttpRefusal, sendJson } from '../json-reply';
import { postGate } from '../post-gate';
import { REQUEST_ID_HEADER } from '../request-id';
import { httpRoot, NotJson } from '../root-plugin';

// The root plugin every server registers, through Fastify's inject: no
// socket is the point here (the timeouts, floods and pipelining are the
// server's socket tests). Each case was seen failing without its part of
// the plugin (the onSend hook taken out, the parser's `as` ignored, the
// visitor read without trustProxy, the refusals all JSON).

/** An app with the root plugin and a few routes that each do one thing (a minute for a body: never the point here, on a busy machine). */
async function appWith(trustProxy = false, onMalformed?: () => void): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(httpRoot, { trustProxy });
  app.get('/plain', (_request, reply) => reply.code(200).send('hello\n'));
  app.get('/json', (_request, reply) => sendJson(reply, 200, { ok: true }));
  app.get('/page', (_request, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><title>Page</title>'));
  app.get('/script.js', (_request, reply) => reply.type('text/javascript; charset=utf-8').send('console.log(1);\n'));
  app.get('/style.css', (_request, reply) => reply.type('text/css').send('p{}\n'));
  app.get('/refused', () => {
    throw new HttpRefusal(409, 'already there', { field: 'name' });
  });
  app.get('/refused-plain', { config: { refusals: 'plain' } }, () => {
    throw new HttpRefusal(409, 'already there');
  });
  app.get('/broken', () => {
    throw new Error('the database went away');
  });
  app.get('/visitor', (request) => request.visitor);
  app.post('/no-body', () => 'read nothing');
  app.post('/text', { config: { body: { as: 'text', limits: { limit: 16, timeMs: 60_000 } } } }, (request) => ({ got: request.body }));
  app.post(
    '/json',
    {
      config: { body: { as: 'json', limits: { limit: 64, timeMs: 60_000 } } },
      onError: (_request, _reply, error, next) => {
        if (error instanceof NotJson) onMalformed?.();
        next();
      },
    },
    (request) => ({ got: request.body }),
  );
  return app;
}

describe('the root plugin', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith();
  });
  afterAll(() => app.close());

  test.each(['/plain', '/json', '/refused', '/refused-plain', '/broken', '/no-such-path'])(
    'every answer carries the common headers and its request id: %s',
    async (url) => {
      const answer = await app.inject({ url });
      for (const [name, value] of Object.entries(COMMON_HEADERS)) expect(answer.headers[name.toLowerCase()]).toBe(value);
      expect(answer.headers[REQUEST_ID_HEADER.toLowerCase()]).toEqual(expect.any(String));
      // Over plain http: no HSTS.
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    },
  );

  test.each(['/page', '/plain', '/json'])('%s carries Permissions-Policy, which only a document reads', async (url) => {
    const answer = await app.inject({ url });
    expect(answer.headers['permissions-policy']).toBe(COMMON_HEADERS['Permissions-Policy']);
  });

  test.each(['/script.js', '/style.css'])('%s carries nosniff and the referrer policy, not the document-only Permissions-Policy', async (url) => {
    const answer = await app.inject({ url });
    expect(answer.statusCode).toBe(200);
    for (const [name, value] of Object.entries(SUBRESOURCE_HEADERS)) expect(answer.headers[name.toLowerCase()]).toBe(value);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['permissions-policy']).toBeUndefined();
    expect(answer.headers[REQUEST_ID_HEADER.toLowerCase()]).toEqual(expect.any(String));
  });

  test("a refusal is `{ error, ...fields }` as JSON by default, the route's text when it says so", async () => {
    const json = await app.inject({ url: '/refused' });
    expect(json.statusCode).toBe(409);
    expect(json.json()).toEqual({ error: 'already there', field: 'name' });
    expect(json.headers['content-security-policy']).toBe(DATA_CSP);
    const plain = await app.inject({ url: '/refused-plain' });
    expect(plain.statusCode).toBe(409);
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(plain.body).toBe('already there\n');
  });

  test('a route that throws answers 500 without saying why', async () => {
    const answer = await app.inject({ url: '/broken' });
    expect(answer.statusCode).toBe(500);
    expect(answer.body).toBe('Internal server error\n');
    expect(answer.body).not.toContain('database');
  });

  test('a route that declares no body refuses one (415) before its handler runs', async () => {
    const answer = await app.inject({ method: 'POST', url: '/no-body', headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    expect(answer.statusCode).toBe(415);
    expect(answer.body).not.toContain('read nothing');
  });

  test("each route's own limit and form: text as sent, JSON parsed", async () => {
    const text = await app.inject({ method: 'POST', url: '/text', headers: { 'content-type': 'text/plain' }, payload: '{"a":1}' });
    expect(text.json()).toEqual({ got: '{"a":1}' });
    const json = await app.inject({ method: 'POST', url: '/json', headers: { 'content-type': 'text/plain' }, payload: '{"a":1}' });
    expect(json.json()).toEqual({ got: { a: 1 } });
    // 17 bytes: past the text route's 16, well within the JSON route's 64.
    const over = await app.inject({ method: 'POST', url: '/text', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(17) });
    expect(over.statusCode).toBe(413);
    expect(over.headers.connection).toBe('close');
    const within = await app.inject({ method: 'POST', url: '/json', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify('x'.repeat(17)) });
    expect(within.json()).toEqual({ got: 'x'.repeat(17) });
  });

  test('a body that is not JSON is refused 400, and its route can tell (NotJson)', async () => {
    let malformed = 0;
    const counting = await appWith(false, () => (malformed += 1));
    try {
      const answer = await counting.inject({ method: 'POST', url: '/json', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: 'the body is not valid JSON' });
      expect(malformed).toBe(1);
    } finally {
      await counting.close();
    }
  });
});

describe("an API's own words through the root plugin (the control API's)", () => {
  class StoreRefusal extends Error {}
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(httpRoot, {
      trustProxy: false,
      refusalOf: (error) => (error instanceof StoreRefusal ? new HttpRefusal(404, error.message) : undefined),
      clientFaults: 'json',
      failure: (_error, _request, reply) => sendJson(reply, 503, { error: 'try again' }, { 'Retry-After': '5' }),
    });
    const body = {
      as: 'json' as const,
      limits: { limit: 64, timeMs: 60_000 },
      empty: {},
      reviver: (key: string, value: unknown) => {
        if (value === 'forbidden') throw new HttpRefusal(400, `${key} holds what is refused`);
        return value;
      },
    };
    app.post('/things', { config: { body } }, (request) => ({ got: request.body }));
    app.get('/gone', () => {
      throw new StoreRefusal('no such thing');
    });
    app.get('/broken', () => {
      throw new Error('the database went away');
    });
    app.get('/fastify-fault', () => {
      throw Object.assign(new Error('the header is malformed'), { statusCode: 400 });
    });
  });
  afterAll(() => app.close());

  test("a domain's error is answered as the refusal it is, a failure by the API's `failure`", async () => {
    const gone = await app.inject({ url: '/gone' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'no such thing' });
    const broken = await app.inject({ url: '/broken' });
    expect(broken.statusCode).toBe(503);
    expect(broken.headers['retry-after']).toBe('5');
    expect(broken.headers['x-content-type-options']).toBe('nosniff');
  });

  test("a client's fault Fastify found is `{ error }` as JSON for an API that says so", async () => {
    const fault = await app.inject({ url: '/fastify-fault' });
    expect(fault.statusCode).toBe(400);
    expect(fault.json()).toEqual({ error: 'the header is malformed' });
  });

  test('an empty body is what the route says, and its reviver may refuse a value', async () => {
    const empty = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '  ' });
    expect(empty.json()).toEqual({ got: {} });
    const refused = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{"name":"forbidden"}' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'name holds what is refused' });
  });
});

describe("the request's visitor", () => {
  const forwarded = { host: '127.0.0.1:8080', 'x-forwarded-host': 'www.portico.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };

  test('is read from the request itself unless a proxy is trusted: X-Forwarded-* sent by a client are ignored', async () => {
    const app = await appWith(false);
    try {
      const answer = await app.inject({ url: '/visitor', headers: forwarded, remoteAddress: '198.51.100.4' });
      expect(answer.json()).toMatchObject({ origin: 'http://127.0.0.1:8080', protocol: 'http', address: '198.51.100.4' });
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  test('behind the proxy it trusts: its forwarded host, scheme and address, and HSTS on every answer to https', async () => {
    const app = await appWith(true);
    try {
      const answer = await app.inject({ url: '/visitor', headers: forwarded, remoteAddress: '127.0.0.1' });
      expect(answer.json()).toMatchObject({ origin: 'https://www.portico.example', protocol: 'https', address: '203.0.113.9' });
      expect(answer.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
      const refusal = await app.inject({ url: '/refused', headers: forwarded });
      expect(refusal.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    } finally {
      await app.close();
    }
  });
});

describe('postGate: what a browser-facing POST checks before its body', () => {
  let open = true;
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith();
    const gate = postGate({
      accepts: (type) => type === 'text/plain',
      open: () => open,
      words: { method: 'POST only', origin: 'own pages only', type: 'text only', closed: 'closed now' },
    });
    app.route({
      method: ['GET', 'POST', 'PUT'],
      url: '/gated',
      config: { body: { as: 'text', limits: { limit: 64, timeMs: 60_000 } } },
      onRequest: gate,
      handler: (request) => ({ got: request.body }),
    });
  });
  afterAll(() => app.close());

  const own = { host: 'localhost:8080', origin: 'http://localhost:8080', 'content-type': 'text/plain' };
  const { origin: _origin, ...noOrigin } = own;

  test.each([
    ['another method', { method: 'PUT' as const }, 405, 'POST only'],
    ['no Origin', { headers: noOrigin }, 403, 'own pages only'],
    ['another site', { headers: { ...own, origin: 'https://attacker.example' } }, 403, 'own pages only'],
    ['Origin `null`', { headers: { ...own, origin: 'null' } }, 403, 'own pages only'],
    ['another type', { headers: { ...own, 'content-type': 'application/x-www-form-urlencoded' } }, 415, 'text only'],
  ])("%s: refused in the route's words", async (_what, request, status, error) => {
    const answer = await app.inject({ method: 'POST', url: '/gated', headers: own, payload: 'hi', ...request });
    expect(answer.statusCode).toBe(status);
    expect(answer.json()).toEqual({ error });
    if (status === 405) expect(answer.headers.allow).toBe('POST');
  });

  test('the service closed: 503 with Retry-After, asked only once the rest passed', async () => {
    open = false;
    try {
      const closed = await app.inject({ method: 'POST', url: '/gated', headers: own, payload: 'hi' });
      expect(closed.statusCode).toBe(503);
      expect(closed.headers['retry-after']).toBe('5');
      const foreign = await app.inject({ method: 'POST', url: '/gated', headers: { ...own, origin: 'https://attacker.example' }, payload: 'hi' });
      expect(foreign.statusCode).toBe(403);
    } finally {
      open = true;
    }
  });

  test('a request from the page itself goes through, its body read', async () => {
    const answer = await app.inject({ method: 'POST', url: '/gated', headers: own, payload: 'hi' });
    expect(answer.json()).toEqual({ got: 'hi' });
  });
});
