import type { Database } from '@portico/platform/database';
import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startConsoleEvents, type ConsoleEvents } from '../console-events';
import { startControlApi, type ControlApi } from '../../control/control-api';
import type { ConsoleEvent } from '@portico/control-contract';
import { silentLogger } from '@portico/platform/logging';

// A section token's stream and `GET /api/servers` carry its sections alone:
// no event of another section, nor one of no section (which tells of every
// section: a server's heartbeat, a token made, the alerts set).

const OWNER = 'the-integrator-token';
const checks: PublishChecks = ({ manifestUrl }) =>
  Promise.resolve({ ok: true, checks: [], manifest: { integrity: `sha384-${manifestUrl.length}`, version: '1.0.0', buildId: manifestUrl.split('/').at(-2)! } });

let database: TestDatabase;
let store: ReleaseStore;
let api: ControlApi;

beforeAll(async () => {
  database = embeddedTestDatabase();
  store = await ReleaseStore.open(await database.open(), { environmentToken: OWNER });
  api = await startControlApi({ store, port: 0, publishChecks: checks, publicUrl: 'http://localhost:8080', log: silentLogger });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await store?.db.close();
  database?.cleanUp();
});

const call = async (token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

const publish = async (section: string, version: string) =>
  ((await call(OWNER, 'POST', '/api/releases', { section, manifestUrl: `https://cdn.example/${section}/${version}/mf-manifest.json` })).body as { id: string })
    .id;

/** A stream opened with a bearer token, its events gathered as they come. */
async function listen(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${api.url}/api/events`, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  const heard: ConsoleEvent[] = [];
  const waiting = new Set<() => void>();
  void (async () => {
    let buffered = '';
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const data = /^data: (.*)$/m.exec(buffered.slice(0, end))?.[1];
        buffered = buffered.slice(end + 2);
        if (data) heard.push(JSON.parse(data) as ConsoleEvent);
      }
      for (const wake of waiting) wake();
    }
  })().catch(() => undefined);
  /** Waits for an event like `wanted` (bounded by the test's time-out). */
  const hear = (wanted: ConsoleEvent) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!heard.some((event) => event.kind === wanted.kind && event.section === wanted.section)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { heard, hear, close: () => controller.abort() };
}

it("tells a section token's stream of its section alone, never of another section or of none", async () => {
  const { token: homeToken } = await store.tokens.create({ name: 'home-team', section: 'home', actor: 'test' });
  const home = await listen(homeToken);
  const integrator = await listen(OWNER);
  try {
    // Changes of Contact, and of no section.
    const contact = await publish('contact', 'v1');
    await call(OWNER, 'POST', '/api/tokens', { name: 'contact-team', section: 'contact' });
    await call(OWNER, 'POST', '/api/tokens', { name: 'integrator-2' });
    await call(OWNER, 'PUT', '/api/alerts', { failureRateThreshold: 0.5 });
    await store.servers.beat({ id: 'server-a', host: 'a.internal', port: 8080, pid: 1, startedAt: new Date(), releases: [contact] });
    // The integrator hears each, the server's change also from the next read of each section (EVENTS_POLL_MS).
    for (const event of [
      { kind: 'releases', section: 'contact' },
      { kind: 'tokens' },
      { kind: 'alerts' },
      { kind: 'audit' },
      { kind: 'servers' },
      { kind: 'servers', section: 'contact' },
    ] as const)
      await integrator.hear(event);
    // Then Home's own change, which the Home stream hears after all of those (one hub, in order).
    await publish('home', 'v1');
    await home.hear({ kind: 'releases', section: 'home' });
    await integrator.hear({ kind: 'releases', section: 'home' });
    expect(home.heard.filter((event) => event.section !== 'home')).toEqual([]);
    expect(home.heard).toContainEqual({ kind: 'audit', section: 'home' });
  } finally {
    home.close();
    integrator.close();
  }
}, 30_000);

it('shows a section token only its sections’ releases of each server, an integrator all of them', async () => {
  const home = await publish('home', 'v2');
  const about = await publish('about', 'v1');
  const contact = await publish('contact', 'v2');
  await store.servers.beat({ id: 'server-b', host: 'b.internal', port: 8080, pid: 2, startedAt: new Date(), releases: [contact, home, about] });
  const { token: homeToken } = await store.tokens.create({ name: 'home-servers', section: 'home', actor: 'test' });
  const { token: twoSections } = await store.tokens.create({ name: 'home-about', scopes: ['section:home', 'section:about'], actor: 'test' });
  const { token: messagesToken } = await store.tokens.create({ name: 'inbox-reader', scopes: ['messages'], actor: 'test' });
  const releasesOf = async (token: string) => {
    const { status, body } = await call(token, 'GET', '/api/servers');
    expect(status).toBe(200);
    return (body as { id: string; releases: string[] }[]).find((server) => server.id === 'server-b')!.releases;
  };
  expect(await releasesOf(OWNER)).toEqual([contact, home, about]);
  expect(await releasesOf(homeToken)).toEqual([home]);
  expect(await releasesOf(twoSections)).toEqual([home, about]);
  // A messages reader sees no section, so no server.
  expect((await call(messagesToken, 'GET', '/api/servers')).status).toBe(403);
});

describe('the hub, when no notification arrives', () => {
  let events: ConsoleEvents;
  beforeAll(async () => {
    // A database whose notifications never arrive: only the reads of each section's state tell.
    const deaf: Database = {
      ...store.db,
      query: store.db.query.bind(store.db),
      transaction: store.db.transaction.bind(store.db),
      listen: () => Promise.reject(new Error('the listening connection is gone')),
    };
    events = await startConsoleEvents(deaf, { pollMs: 100, withMessages: false });
  });
  afterAll(() => events?.close());

  it('says each change it reads with its section', async () => {
    const heard: ConsoleEvent[] = [];
    const stop = events.subscribe((event) => heard.push(event));
    const seen = (kind: string, section?: string) => heard.some((event) => event.kind === kind && event.section === section);
    try {
      const about = await publish('about', 'v9');
      await call(OWNER, 'POST', '/api/sections/about/active', { release: about });
      await store.servers.beat({ id: 'server-c', host: 'c.internal', port: 8080, pid: 3, startedAt: new Date(), releases: [about] });
      await call(OWNER, 'POST', '/api/tokens', { name: 'integrator-3' });
      // Reads every 100 ms: 15 s is a bound no machine should come near.
      const deadline = Date.now() + 15_000;
      while (!(seen('releases', 'about') && seen('sections', 'about') && seen('servers', 'about') && seen('audit', 'about') && seen('tokens'))) {
        if (Date.now() > deadline) throw new Error(`not all heard: ${JSON.stringify(heard)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // What is of a section is never said without it.
      expect(heard.filter((event) => ['releases', 'sections'].includes(event.kind) && event.section === undefined)).toEqual([]);
    } finally {
      stop();
    }
  }, 30_000);
});
