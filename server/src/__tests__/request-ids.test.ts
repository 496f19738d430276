import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiRoutes, contactSettings, startContactService, type ContactService } from '@portico/messages';
import { formBody } from '@portico/messages/testing';
import { dataHeaders, listenOn, sendAnswer } from '@portico/platform/http';
import { captureLog, type CapturedLog } from '@portico/platform/testing';
import { ReleaseStore, startControlApi, type ControlApi } from '@portico/releases';
import { DEFAULT_CLIENT_LIMITS } from '../client-limits';
import { appServer, type AppServer } from '../http/app-server';
import { visitorOf } from '@portico/platform/http';
import { httpRequest, rawRequest, type RawAnswer } from './built-site';
import { silentLogger } from '@portico/platform/logging';

// Issue 51, item 2: each request's id, answered in X-Request-Id on both
// servers, taken from nginx only behind the trusted proxy, kept with a
// stored message and an audit entry, and on every line the request logs,
// which never hold a query, a message's text or a client's address.
// Checked failing before the change: no X-Request-Id, no request_id
// column, and the failure line held the whole target with its query.

const OWNER = 'request-ids-owner-token';
const NGINX_ID = '0123456789abcdef0123456789abcdef';
const MARKER = 'secret-marker';
const TEXT_MARKER = 'Marked words only the lender may read';

let folder: string;
let service: ContactService;
let store: ReleaseStore;
let control: ControlApi;
const controlLog = captureLog();

/** A page server's port as main.ts makes it: the contact API, a route that fails, one that sends a file's answer (the page's, the files'). */
function pageServer(trustProxy: boolean, log: CapturedLog): AppServer {
  const served = appServer({ hosts: [{ hostname: 'localhost' }], trustProxy, limits: DEFAULT_CLIENT_LIMITS, log: log.logger });
  void served.app.register(apiRoutes, { endpoint: () => service.endpoint, headers: dataHeaders() });
  served.app.get('/fails', () => {
    throw new Error('failed on purpose');
  });
  served.app.get('/file', (_request, reply) => sendAnswer(reply, { status: 200, headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('a file\n') }));
  return served;
}

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-request-ids-'));
  service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: (req) => ({ origin: visitorOf(req, { trustProxy: false }).origin, address: '203.0.113.9' }),
    log: silentLogger,
  });
  store = await ReleaseStore.open(service.database, { environmentToken: OWNER });
  control = await startControlApi({
    store,
    port: 0,
    publishChecks: () => Promise.resolve({ ok: false, checks: [] }),
    messages: service.store,
    publicUrl: 'http://localhost:8080',
    log: controlLog.logger,
  });
}, 60_000);

afterAll(async () => {
  await control?.close();
  await service?.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

/** One request over a socket (Host as written: no client rewrites it), its body as JSON when it has one. */
async function ask(
  port: number,
  target: string,
  options: { method?: string; host?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawAnswer> {
  const body = options.body === undefined ? '' : JSON.stringify(options.body);
  const headers = { ...options.headers, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
  const answer = await rawRequest(port, httpRequest(target, { method: options.method, host: options.host, headers }) + body);
  if (!answer) throw new Error(`no answer to ${target}`);
  return answer;
}

describe("the page server's ports", () => {
  const log = captureLog();
  const direct = pageServer(false, log);
  const proxied = pageServer(true, captureLog());
  const ports: Record<'direct' | 'proxied', number> = { direct: 0, proxied: 0 };
  const listen = async (served: AppServer) => {
    await served.app.ready();
    return (await listenOn(served.server, { port: 0, host: '127.0.0.1', taken: String, failed: String })).port;
  };
  beforeAll(async () => {
    ports.direct = await listen(direct);
    ports.proxied = await listen(proxied);
  });
  afterAll(async () => {
    for (const served of [direct, proxied]) {
      served.server.closeAllConnections();
      await served.app.close();
    }
  });

  test.each([
    ['a route of Fastify', '/fails', 500],
    ['a file sent as an answer', '/file', 200],
    ['a Host refused before any route', '/file', 400],
    ['a path no route takes', '/nothing-here', 404],
  ])('%s answers with a fresh short id in X-Request-Id, a new one per request', async (_what, url, status) => {
    const host = status === 400 ? 'elsewhere.example' : undefined;
    const [first, second] = [await ask(ports.direct, url, { host }), await ask(ports.direct, url, { host })];
    expect(first.status).toBe(status);
    expect(first.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{12,}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  test('a client reaching the server directly cannot name its request: its X-Request-Id is ignored', async () => {
    const answer = await ask(ports.direct, '/file', { headers: { 'X-Request-Id': NGINX_ID } });
    expect(answer.headers['x-request-id']).not.toBe(NGINX_ID);
  });

  test("behind the trusted proxy, nginx's id is the request's; a malformed one is replaced, never echoed", async () => {
    const taken = await ask(ports.proxied, '/file', { headers: { 'X-Request-Id': NGINX_ID } });
    expect(taken.headers['x-request-id']).toBe(NGINX_ID);
    for (const malformed of ['short', 'a'.repeat(65), 'has space in it', 'quote"and<tag>', 'tab\there-and-there']) {
      const replaced = await ask(ports.proxied, '/file', { headers: { 'X-Request-Id': malformed } });
      expect(replaced.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{12,}$/);
    }
  });

  test("a stored contact message keeps its request's id", async () => {
    const answer = await ask(ports.proxied, '/api/contact', {
      method: 'POST',
      headers: { Origin: `http://localhost:${ports.proxied}`, 'X-Request-Id': NGINX_ID },
      body: formBody('request-ids-0001'),
    });
    expect(answer.status).toBe(201);
    const { id } = JSON.parse(answer.body) as { id: string };
    expect((await service.store.get(id))?.requestId).toBe(NGINX_ID);
  });

  test("no line holds a query, a message's text or a client's address; each line of a request carries its id", async () => {
    log.lines.length = 0;
    const failed = await ask(ports.direct, `/fails?preview=${MARKER}&token=${MARKER}`);
    const posted = await ask(ports.direct, `/api/contact?token=${MARKER}`, {
      method: 'POST',
      headers: { Origin: `http://localhost:${ports.direct}` },
      // The hidden field filled: the route logs the drop, and must not say what was typed nor from where.
      body: { ...formBody('request-ids-0002', { message: TEXT_MARKER }), website: 'http://bot.example' },
    });
    expect(posted.status).toBe(201);
    const text = log.text();
    for (const secret of [MARKER, TEXT_MARKER, '203.0.113.9', '127.0.0.1', 'remoteAddress']) expect(text).not.toContain(secret);
    const linesOf = (id: unknown) => log.lines.filter((line) => line.reqId === id);
    // The failure itself, said as an error, and the request's own line.
    expect(linesOf(failed.headers['x-request-id']).map((line) => [line.level, line.msg])).toEqual([
      [50, 'GET "/fails" failed'],
      [20, 'answered'],
    ]);
    expect(linesOf(posted.headers['x-request-id']).map((line) => line.msg)).toEqual(['contact: dropped a message whose hidden field was filled', 'answered']);
    expect(log.lines.every((line) => typeof line.reqId === 'string')).toBe(true);
  });
});

test('at info, a request served well makes no logger of its own; one that fails says so on its own, with its id', async () => {
  // Fastify makes a child logger per request; ours is made only when the request says something (lazyRequestLogger).
  const quiet = captureLog('info');
  const served = pageServer(false, quiet);
  await served.app.ready();
  const { port } = await listenOn(served.server, { port: 0, host: '127.0.0.1', taken: String, failed: String });
  // Counted from the first request on (Fastify makes the app's own child once, at its start).
  const children = jest.spyOn(quiet.logger, 'child');
  try {
    for (let request = 0; request < 3; request++) expect((await ask(port, '/file')).status).toBe(200);
    expect(children).not.toHaveBeenCalled();
    const failed = await ask(port, '/fails');
    expect(failed.status).toBe(500);
    expect(children).toHaveBeenCalledTimes(1);
    expect(quiet.lines.map((line) => [line.level, line.reqId, line.msg])).toEqual([[50, failed.headers['x-request-id'], 'GET "/fails" failed']]);
  } finally {
    served.server.closeAllConnections();
    await served.app.close();
  }
});

describe('the control API', () => {
  const call = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${control.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  test('answers its own id, whatever the client sends, even to a refusal', async () => {
    const refused = await fetch(`${control.url}/api/tokens`, { headers: { 'X-Request-Id': NGINX_ID } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9_-]{12,}$/);
  });

  test("an audit entry a request caused keeps its id, in the API's answer and the CSV; the message read is audited with it too", async () => {
    const created = await call('POST', '/api/tokens', { name: 'request-ids-token', scopes: ['messages'] }, { 'X-Request-Id': NGINX_ID });
    expect(created.status).toBe(201);
    const id = created.headers.get('x-request-id');
    expect(id).not.toBe(NGINX_ID);
    const entries = (await (await call('GET', '/api/audit?action=token')).json()) as { detail: string; requestId: string | null }[];
    expect(entries.find((entry) => entry.detail.startsWith('created request-ids-token'))?.requestId).toBe(id);
    expect(await (await call('GET', '/api/audit.csv?action=token')).text()).toContain(id);
    // A line the request logged carries the same id.
    expect(controlLog.lines.some((line) => line.reqId === id && line.msg === 'answered')).toBe(true);

    const [stored] = await service.store.list({ limit: 1 });
    const read = await call('GET', `/api/messages/${stored!.id}`);
    expect(read.status).toBe(200);
    const [access] = await service.store.accessLog({ limit: 1 });
    expect(access).toMatchObject({ action: 'message-read', requestId: read.headers.get('x-request-id') });
  });
});
