import { testDatabaseKinds, embeddedTestDatabase, serverTestDatabase, type TestDatabase } from '@portico/platform/testing';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi, type ControlApiOptions } from '../../control/control-api';
import { consoleSignIn } from './console-sign-in';
import { silentLogger } from '@portico/platform/logging';

// An event stream lasts no longer than what opened it: a revoked token's
// stream, or a signed-out session's, ends within 15 s (docs/console-api.md),
// also when the revocation is made through another server on the database.

const OWNER = 'the-integrator-token';
/** The bound the issue sets: generous beside the ~2 s a revocation takes to be heard (a notification, or the next read). */
const BOUND_MS = 15_000;
/** A re-check period no test outlives: the stream must end by the `tokens` change alone. */
const NEVER_MS = 3_600_000;
const checks: PublishChecks = () => Promise.resolve({ ok: true, checks: [], manifest: { integrity: 'sha384-x', version: '1.0.0', buildId: 'b' } });

/** A stream read to its end in the background: whether it ended within a bound, asked as often as needed. */
function watch(response: Response) {
  const reader = response.body!.getReader();
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return true as const;
  })().catch(() => true as const);
  return {
    async endsWithin(withinMs: number): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
      const result = await Promise.race([ended, timedOut]);
      clearTimeout(timer);
      return result;
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}

describe.each(testDatabaseKinds())('on the %s database', (kind) => {
  let database: TestDatabase;
  /** The store of the server the stream is open on, and another's (its own connections when the database is a server). */
  let store: ReleaseStore;
  let otherStore: ReleaseStore;
  const apis: ControlApi[] = [];

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    store = await ReleaseStore.open(await database.open(), { environmentToken: OWNER });
    // One embedded database is one process's: there, the two servers share it.
    otherStore = kind === 'embedded' ? store : await ReleaseStore.open(await database.open(), { environmentToken: OWNER });
  }, 60_000);

  afterAll(async () => {
    for (const api of apis) await api.close();
    if (otherStore !== store) await otherStore?.db.close();
    await store?.db.close();
    database?.cleanUp();
  });

  async function start(on: ReleaseStore, options: Partial<ControlApiOptions> = {}): Promise<ControlApi> {
    const api = await startControlApi({ store: on, port: 0, publishChecks: checks, publicUrl: 'http://localhost:8080', log: silentLogger, ...options });
    apis.push(api);
    return api;
  }

  const revokeOn = (api: ControlApi, name: string) =>
    fetch(`${api.url}/api/tokens/${name}`, { method: 'DELETE', headers: { Authorization: `Bearer ${OWNER}` } });

  /** A session opened on `api` with `token`, as the console opens one: its cookie and anti-forgery value. */
  async function signIn(api: ControlApi, token: string): Promise<{ headers: Record<string, string>; id: string }> {
    const { status, cookie, headers } = await consoleSignIn(api.url, token);
    expect(status).toBe(201);
    return { headers, id: cookie.slice(cookie.indexOf('=') + 1) };
  }

  it("ends a bearer token's stream when the token is revoked through another server, by the revocation's change alone", async () => {
    const streaming = await start(store, { eventsRecheckMs: NEVER_MS });
    const other = await start(otherStore);
    const { token } = await store.tokens.create({ name: `ci-home-${kind}`, section: 'home', actor: 'test' });
    const response = await fetch(`${streaming.url}/api/events`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const stream = watch(response);
    // Another token's stream, which the revocation leaves open.
    const unrevoked = watch(await fetch(`${streaming.url}/api/events`, { headers: { Authorization: `Bearer ${OWNER}` } }));
    expect((await revokeOn(other, `ci-home-${kind}`)).status).toBe(200);
    expect(await stream.endsWithin(BOUND_MS)).toBe(true);
    expect(await unrevoked.endsWithin(1000)).toBe(false);
    await unrevoked.close();
    // And it cannot be opened again.
    expect((await fetch(`${streaming.url}/api/events`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
  }, 30_000);

  it("ends a console session's stream when its token is revoked through another server", async () => {
    const streaming = await start(store, { eventsRecheckMs: NEVER_MS });
    const other = await start(otherStore);
    const { token } = await store.tokens.create({ name: `home-fix-${kind}`, section: 'home', actor: 'test' });
    const session = await signIn(streaming, token);
    const response = await fetch(`${streaming.url}/api/events`, { headers: session.headers });
    expect(response.status).toBe(200);
    const stream = watch(response);
    expect((await revokeOn(other, `home-fix-${kind}`)).status).toBe(200);
    expect(await stream.endsWithin(BOUND_MS)).toBe(true);
  }, 30_000);

  it('ends a session stream at its next re-check once the session is ended on another server (no change tells of that)', async () => {
    // The token made before the server starts: no `tokens` change comes to re-check the stream.
    const { token } = await store.tokens.create({ name: `signs-out-${kind}`, section: 'home', actor: 'test' });
    const streaming = await start(store, { eventsRecheckMs: 200 });
    const session = await signIn(streaming, token);
    const response = await fetch(`${streaming.url}/api/events`, { headers: session.headers });
    expect(response.status).toBe(200);
    const stream = watch(response);
    // Held open while the session lasts: several re-checks pass.
    expect(await stream.endsWithin(1000)).toBe(false);
    await otherStore.sessions.end(session.id);
    expect(await stream.endsWithin(BOUND_MS)).toBe(true);
  }, 30_000);
});
