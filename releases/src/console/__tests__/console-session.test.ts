import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contactSettings, startContactService, type ContactService } from '@portico/messages';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi } from '../../control/control-api';
import { silentLogger } from '@portico/platform/logging';

// The operator console's sessions (docs/console.md, "Sessions"), tried as a
// browser would: a sign-in, the cookie, the anti-forgery header, the
// origins a browser says it comes from, and two servers on one database.

const ENV_TOKEN = 'the-integrator-token-from-the-environment';
const MINUTE = 60_000;
const noChecks: PublishChecks = () => Promise.resolve({ ok: false, checks: [] });

let folder: string;
let service: ContactService;
let store: ReleaseStore;
/** Two servers on one database, as behind a load balancer. */
let first: ControlApi;
let second: ControlApi;
/** The sessions' clock: the tests move it. */
let clock = Date.now();
const tokens: Record<string, string> = {};

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** What a browser on the console's own page sends with every fetch. */
const ownPage = (api: ControlApi) => ({ Origin: api.url, 'Sec-Fetch-Site': 'same-origin' });

async function send(api: ControlApi, method: string, route: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const response = await fetch(`${api.url}${route}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** Signs in on the console's own page: the cookie to send back, the CSRF value and the answer. */
async function signIn(token: string, api = first, headers: Record<string, string> = {}) {
  const answer = await send(api, 'POST', '/api/session', { ...ownPage(api), ...headers }, { token });
  const setCookie = answer.headers.get('set-cookie') ?? '';
  return { answer, setCookie, cookie: setCookie.split(';')[0]!, csrf: answer.body.csrf as string };
}

/** A read from the console's own page with the session. */
const read = (session: { cookie: string; csrf: string }, route: string, api = first) =>
  send(api, 'GET', route, { ...ownPage(api), Cookie: session.cookie, 'X-Portico-CSRF': session.csrf });

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-console-session-'));
  service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: () => ({ origin: undefined, address: '127.0.0.1' }),
    log: silentLogger,
  });
  store = await ReleaseStore.open(service.database, { environmentToken: ENV_TOKEN, now: () => clock });
  const options = {
    store,
    port: 0,
    publishChecks: noChecks,
    messages: service.store,
    publicUrl: 'https://www.lender.example',
    log: silentLogger,
    failedAuth: { max: 3, windowMs: MINUTE },
  };
  first = await startControlApi(options);
  second = await startControlApi(options);
  tokens.integrator = (await store.tokens.create({ name: 'integrator', actor: 'test' })).token;
  tokens.home = (await store.tokens.create({ name: 'home-team', section: 'home', actor: 'test' })).token;
  tokens.inbox = (await store.tokens.create({ name: 'lender-staff', scopes: ['messages'], actor: 'test' })).token;
}, 60_000);

afterAll(async () => {
  await first?.close();
  await second?.close();
  await service?.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(() => {
  clock = Date.now();
});

describe('signing in', () => {
  it('answers the actor, the CSRF value and both expiries, with an HttpOnly, SameSite=Strict cookie for the whole origin, Secure only over https', async () => {
    const { answer, setCookie } = await signIn(tokens.home!);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      actor: { name: 'home-team', scopes: ['section:home'], section: 'home' },
      csrf: expect.stringMatching(/^[\w-]{40,}$/),
      idleExpiresAt: new Date(clock + 30 * MINUTE).toISOString(),
      expiresAt: new Date(clock + 12 * 60 * MINUTE).toISOString(),
    });
    expect(setCookie).toMatch(/^portico_console=[\w-]{40,}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    // The token is nowhere in what the browser keeps.
    expect(setCookie).not.toContain(tokens.home);

    // Reached through an https proxy, the cookie is Secure.
    const overHttps = await signIn(tokens.home!, first, { Origin: first.url.replace('http:', 'https:') });
    expect(overHttps.setCookie).toMatch(/; Secure$/);
  });

  it('keeps only hashes of the session id and of the CSRF value in the database', async () => {
    const { cookie, csrf } = await signIn(tokens.home!);
    const id = cookie.split('=')[1]!;
    const rows = await service.database.query<Record<string, unknown>>('SELECT * FROM console_sessions');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(csrf);
    expect(stored).not.toContain(tokens.home);
  });

  it('makes a new session at every sign-in, and a sign-in over a session ends the old one', async () => {
    const before = await signIn(tokens.home!);
    const after = await signIn(tokens.home!, first, { Cookie: before.cookie });
    expect(after.cookie).not.toBe(before.cookie);
    expect(after.csrf).not.toBe(before.csrf);
    expect((await read(before, '/api/releases')).status).toBe(401);
    expect((await read(after, '/api/releases')).status).toBe(200);
  });

  it('counts failed sign-ins toward the failed-authentication limit of bad bearer tokens, and never refuses a valid token', async () => {
    const limited = await startControlApi({
      store,
      port: 0,
      publishChecks: noChecks,
      publicUrl: 'https://www.lender.example',
      log: silentLogger,
      failedAuth: { max: 3, windowMs: MINUTE },
    });
    try {
      for (let attempt = 0; attempt < 3; attempt++) expect((await signIn(`guess-${attempt}`, limited)).answer.status).toBe(401);
      const held = await signIn('guess-again', limited);
      expect(held.answer.status).toBe(429);
      expect(held.answer.headers.get('retry-after')).toMatch(/^\d+$/);
      // The same allowance as a bearer token's: a script cannot try more tokens by switching doors.
      expect((await send(limited, 'GET', '/api/releases', { Authorization: 'Bearer yet-another-guess' })).status).toBe(429);
      // The owner, on the same address, is not locked out: a valid token signs in and is answered as a bearer alike.
      const owner = await signIn(tokens.integrator!, limited);
      expect(owner.answer.status).toBe(201);
      expect((await read(owner, '/api/releases', limited)).status).toBe(200);
      expect((await send(limited, 'GET', '/api/releases', { Authorization: `Bearer ${tokens.integrator!}` })).status).toBe(200);
      // And the guesses are still held back.
      expect((await signIn('guess-after', limited)).answer.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

/** A request over node:http, which (unlike fetch) sends the Host it is given: what a DNS-rebinding page's browser sends. */
function withHost(api: ControlApi, method: string, route: string, host: string | undefined, headers: Record<string, string> = {}, body?: unknown) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: api.port,
        method,
        path: route,
        setHost: host === undefined ? false : undefined,
        headers: {
          ...(host === undefined ? {} : { Host: host }),
          ...(sent === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(sent)) }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(sent);
  });
}

describe("the control port's names", () => {
  it("answers loopback's names and the configured ones, with the port or without; any other Host gets 400 before a token is read", async () => {
    const named = await startControlApi({
      store,
      port: 0,
      publishChecks: noChecks,
      publicUrl: 'https://www.lender.example',
      log: silentLogger,
      hostnames: [{ hostname: 'control.lender.internal' }, { hostname: 'ci.lender.internal', port: 8443 }],
      failedAuth: { max: 3, windowMs: MINUTE },
    });
    const bearer = { Authorization: `Bearer ${tokens.integrator!}` };
    try {
      for (const host of [
        `127.0.0.1:${named.port}`,
        `localhost:${named.port}`,
        `[::1]:${named.port}`,
        'localhost',
        'CONTROL.lender.internal',
        'ci.lender.internal:8443',
      ]) {
        expect([host, (await withHost(named, 'GET', '/api/releases', host, bearer)).status]).toEqual([host, 200]);
      }
      const refused = [`evil.example:${named.port}`, 'ci.lender.internal:8444', `localhost.evil.example:${named.port}`, 'localhost:x', undefined];
      for (const host of refused) {
        const answer = await withHost(named, 'GET', '/api/releases', host, bearer);
        expect([host, answer.status, answer.headers['x-content-type-options']]).toEqual([host, 400, 'nosniff']);
        expect(JSON.parse(answer.text)).toEqual({ error: expect.stringContaining('answers only its own names') });
      }
      // The console's page too: a rebinding page would load it under its own name.
      expect((await withHost(named, 'GET', '/', `evil.example:${named.port}`)).status).toBe(400);
      // Two Host fields name no one host.
      const twice = await new Promise<string>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: named.port }, () =>
          socket.end(
            `GET /api/releases HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nAuthorization: Bearer ${tokens.integrator!}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      expect(twice).toMatch(/^HTTP\/1\.1 400 /);
    } finally {
      await named.close();
    }
  });

  it("lets no rebinding page spend the owner's allowance: its sign-ins are refused by name, not counted, and the owner signs in", async () => {
    const limited = await startControlApi({
      store,
      port: 0,
      publishChecks: noChecks,
      publicUrl: 'https://www.lender.example',
      log: silentLogger,
      failedAuth: { max: 3, windowMs: MINUTE },
    });
    try {
      const rebound = `http://evil.example:${limited.port}`;
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = await withHost(
          limited,
          'POST',
          '/api/session',
          `evil.example:${limited.port}`,
          { Origin: rebound, 'Sec-Fetch-Site': 'same-origin' },
          { token: `guess-${attempt}` },
        );
        expect(answer.status).toBe(400);
      }
      expect((await signIn('one-guess', limited)).answer.status).toBe(401);
      expect((await signIn(tokens.integrator!, limited)).answer.status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('a request with the session cookie', () => {
  it("reads nothing without the CSRF header, or with another session's", async () => {
    const session = await signIn(tokens.integrator!);
    const other = await signIn(tokens.integrator!);
    expect((await send(first, 'GET', '/api/releases', { ...ownPage(first), Cookie: session.cookie })).status).toBe(403);
    expect((await send(first, 'GET', '/api/releases', { ...ownPage(first), Cookie: session.cookie, 'X-Portico-CSRF': other.csrf })).status).toBe(403);
    expect((await read(session, '/api/releases')).status).toBe(200);
  });

  it("is refused from a foreign origin, and from the page's own origin (localhost:PORT), with the CSRF header or without, reads and changes alike", async () => {
    const session = await signIn(tokens.integrator!);
    const port = Number(new URL(first.url).port);
    const page = `http://localhost:${port - 4}`;
    const attempts: Record<string, string>[] = [
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: page, 'Sec-Fetch-Site': 'same-site' },
      // A browser that sends no Sec-Fetch-Site still names the page in Origin.
      { Origin: page },
      // A top-level navigation from the page sends no Origin on a GET, but says where it came from.
      { 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of attempts) {
      for (const withCsrf of [false, true]) {
        const sent = { ...headers, Cookie: session.cookie, ...(withCsrf ? { 'X-Portico-CSRF': session.csrf } : {}) };
        const readAnswer = await send(first, 'GET', '/api/tokens', sent);
        expect([readAnswer.status, readAnswer.body.error]).toEqual([403, expect.stringContaining("no browsers but the console's own page")]);
        const made = await send(first, 'POST', '/api/tokens', sent, { name: 'planted' });
        expect(made.status).toBe(403);
        const signOut = await send(first, 'DELETE', '/api/session', sent);
        expect(signOut.status).toBe(403);
      }
    }
    expect(await store.tokens.find('planted')).toBeUndefined();
    expect((await read(session, '/api/session')).status).toBe(200);
  });

  it('answers "who am I" only with the session\'s header, even to the console\'s own page: a cookie alone is no session', async () => {
    const session = await signIn(tokens.home!);
    expect((await send(first, 'GET', '/api/session', { ...ownPage(first), Cookie: session.cookie })).status).toBe(403);
    expect((await send(first, 'GET', '/api/session', { Cookie: session.cookie })).status).toBe(403);
    const resumed = await read(session, '/api/session');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ actor: { name: 'home-team' }, csrf: session.csrf });
  });

  it("signs nothing in with a session planted from the page's origin: the console's own value names its own session, a planted one is passed over", async () => {
    // Script on http://localhost:PORT sets the console's cookie (cookies do not separate ports) to a session of its own.
    const planted = await signIn(tokens.home!);
    // The console's page, which never signed in in this tab, holds no value: nothing is answered to the cookie.
    for (const route of ['/api/session', '/api/releases']) {
      expect((await send(first, 'GET', route, { ...ownPage(first), Cookie: planted.cookie })).status).toBe(403);
    }
    // The operator signed in; the page plants its cookie beside the operator's (on a longer path, sent first).
    const operator = await signIn(tokens.integrator!);
    const both = `${planted.cookie}; ${operator.cookie}`;
    const who = await send(first, 'GET', '/api/session', { ...ownPage(first), Cookie: both, 'X-Portico-CSRF': operator.csrf });
    expect([who.status, (who.body.actor as { name: string }).name]).toEqual([200, 'integrator']);
    // Only the operator's own value reads the operator's session; the planted one never stands in for it.
    const onlyPlanted = await send(first, 'GET', '/api/session', { ...ownPage(first), Cookie: planted.cookie, 'X-Portico-CSRF': operator.csrf });
    expect(onlyPlanted.status).toBe(403);
  });

  it('ends after 30 minutes without a request, each request moving that on', async () => {
    const session = await signIn(tokens.home!);
    clock += 29 * MINUTE;
    const kept = await read(session, '/api/session');
    expect(kept.status).toBe(200);
    expect(kept.body.idleExpiresAt).toBe(new Date(clock + 30 * MINUTE).toISOString());
    clock += 29 * MINUTE;
    expect((await read(session, '/api/session')).status).toBe(200);
    clock += 31 * MINUTE;
    const ended = await read(session, '/api/session');
    expect(ended.status).toBe(401);
    expect(ended.headers.get('set-cookie')).toMatch(/^portico_console=; Path=\/; Max-Age=0/);
  });

  it('ends 12 hours after its sign-in however busy it is', async () => {
    const session = await signIn(tokens.home!);
    for (let hour = 0; hour < 12 * 3 - 1; hour++) {
      clock += 20 * MINUTE;
      expect((await read(session, '/api/session')).status).toBe(200);
    }
    clock += 20 * MINUTE;
    expect((await read(session, '/api/session')).status).toBe(401);
  });

  it('is valid on every server of the database, and a sign-out on one ends it on all', async () => {
    const session = await signIn(tokens.integrator!, first);
    expect((await read(session, '/api/releases', second)).status).toBe(200);
    const out = await send(first, 'DELETE', '/api/session', { ...ownPage(first), Cookie: session.cookie, 'X-Portico-CSRF': session.csrf });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await read(session, '/api/releases', second)).status).toBe(401);
    expect((await read(session, '/api/releases', first)).status).toBe(401);
  });

  it('ends when its token is revoked', async () => {
    const { token } = await store.tokens.create({ name: 'short-lived', section: 'about', actor: 'test' });
    const session = await signIn(token);
    expect((await read(session, '/api/releases')).status).toBe(200);
    await store.tokens.revoke('short-lived', 'test');
    expect((await read(session, '/api/releases')).status).toBe(401);
  });
});

describe('roles', () => {
  it("gives a Home token's session Home only: Contact is refused whatever the page sends", async () => {
    const session = await signIn(tokens.home!);
    const headers = { ...ownPage(first), Cookie: session.cookie, 'X-Portico-CSRF': session.csrf };
    expect((await send(first, 'GET', '/api/releases?section=home', headers)).status).toBe(200);
    expect((await send(first, 'GET', '/api/releases?section=contact', headers)).status).toBe(403);
    expect((await send(first, 'POST', '/api/sections/contact/rollback', headers, {})).status).toBe(403);
    expect((await send(first, 'GET', '/api/messages', headers)).status).toBe(403);
  });

  it("gives a messages token's session the inbox only", async () => {
    const session = await signIn(tokens.inbox!);
    expect(session.answer.body.actor).toEqual({ name: 'lender-staff', scopes: ['messages'] });
    expect((await read(session, '/api/messages')).status).toBe(200);
    expect((await read(session, '/api/releases')).status).toBe(403);
    expect((await read(session, '/api/tokens')).status).toBe(403);
  });
});
