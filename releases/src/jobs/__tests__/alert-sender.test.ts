import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signature } from '@portico/platform/notices';
import { captureLog, embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { startControlApi, type ControlApi } from '../../control/control-api';
import type { HealthSource, PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startAlertSender, type AlertSender } from '../alert-sender';
import { manualClock } from './manual-clock';
import { eventually } from '@portico/testing/eventually';
import { silentLogger } from '@portico/platform/logging';

// The alerts (docs/console.md, "Alerts"): one notice per event, signed as
// the contact webhook's messages are, retried after a failure, and sent by
// the servers' own timers, never inside an answer.

const TOKEN = 'the-integrator-token';
const SECRET = 'the-webhook-secret';
const noChecks: PublishChecks = () => Promise.resolve({ ok: false, checks: [] });

/** The operator's webhook: what it was sent, and how it answers next. */
interface Received {
  body: string;
  headers: IncomingMessage['headers'];
}
const received: Received[] = [];
let answerWith: (res: ServerResponse) => void = (res) => res.writeHead(200).end();
let webhook: Server;
let webhookUrl: string;

let database: TestDatabase;
let store: ReleaseStore;
let api: ControlApi;
/** Two servers' senders on one database. */
let senders: AlertSender[] = [];
let health: HealthSource = () => Promise.resolve({});
/** The senders' lines, as the server writes them. */
const log = captureLog();

beforeAll(async () => {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      answerWith(res);
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/alerts`;
  database = embeddedTestDatabase();
  store = await ReleaseStore.open(await database.open(), { environmentToken: TOKEN });
  api = await startControlApi({ store, port: 0, publishChecks: noChecks, publicUrl: 'http://localhost:8080', log: silentLogger });
  const options = {
    store,
    secret: SECRET,
    log: log.logger,
    pollMs: 60_000,
    checkEveryMs: 60_000,
    retryDelaySeconds: () => 0,
    health: (...args: Parameters<HealthSource>) => health(...args),
  };
  senders = [startAlertSender(options), startAlertSender(options)];
}, 60_000);

afterAll(async () => {
  for (const sender of senders) await sender.stop();
  await api?.close();
  webhook?.closeAllConnections();
  await new Promise((resolve) => webhook?.close(resolve));
  await store?.db.close();
  database?.cleanUp();
});

beforeEach(() => {
  received.length = 0;
  log.lines.length = 0;
  answerWith = (res) => res.writeHead(200).end();
});

const call = (method: string, route: string, body?: unknown) =>
  fetch(`${api.url}${route}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let built = 0;
async function publishedRelease(section: 'home' | 'contact' = 'home') {
  built += 1;
  const { release } = await store.releases.publish({
    section,
    manifestUrl: `https://cdn.example/${section}/v${built}/mf-manifest.json`,
    integrity: `sha384-${built}`,
    version: '1.0.0',
    buildId: `b${built}`,
    createdBy: 'ci',
    checks: [],
  });
  return release;
}

/** Every server sends what is due, at the same time. */
const everyServerSends = () => Promise.all(senders.map((sender) => sender.sendDue()));

it('keeps the settings in the database, for an integrator only', async () => {
  const set = await call('PUT', '/api/alerts', { webhookUrl, failureRateThreshold: 0.1 });
  expect(set.status).toBe(200);
  expect(await set.json()).toEqual({ webhookUrl, email: null, failureRateThreshold: 0.1 });
  expect(await (await call('GET', '/api/alerts')).json()).toEqual({ webhookUrl, email: null, failureRateThreshold: 0.1 });
  expect((await call('PUT', '/api/alerts', { failureRateThreshold: 2 })).status).toBe(400);
  const { token } = await store.tokens.create({ name: 'home-team', section: 'home', actor: 'test' });
  const refused = await fetch(`${api.url}/api/alerts`, { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status).toBe(403);
});

it('sends a release marked broken once, signed as the contact webhook is, though two servers send', async () => {
  const release = await publishedRelease();
  await store.releases.markBroken(release.id, 'its manifest answered 404');
  await everyServerSends();
  await everyServerSends();
  expect(received).toHaveLength(1);
  const [sent] = received;
  expect(JSON.parse(sent!.body)).toMatchObject({
    kind: 'broken',
    section: 'home',
    release: release.id,
    detail: expect.stringContaining('its manifest answered 404'),
  });
  expect(sent!.headers['x-portico-signature']).toBe(signature(SECRET, sent!.body));
  expect(sent!.headers['idempotency-key']).toBe(JSON.parse(sent!.body).id);
});

it('tries again after a failure, and records why it failed meanwhile', async () => {
  answerWith = (res) => res.writeHead(503).end();
  const release = await publishedRelease();
  await store.releases.markBroken(release.id, 'gone');
  await everyServerSends();
  expect(received).toHaveLength(1);
  const [failed] = await store.db.query<{ last_error: string; delivered_at: Date | null }>(
    'SELECT last_error, delivered_at FROM console_alerts WHERE release = $1',
    [release.id],
  );
  expect(failed).toEqual({ last_error: 'webhook: the webhook answered 503', delivered_at: null });
  // An alert an operator does not get is an error, not routine: its event, attempt and the channel's answer as fields.
  expect(log.lines).toEqual([
    expect.objectContaining({
      level: 50,
      msg: 'alerts: an alert was not sent, tried again later',
      kind: 'broken',
      attempt: 1,
      final: false,
      problem: 'webhook: the webhook answered 503',
    }),
  ]);
  answerWith = (res) => res.writeHead(200).end();
  await everyServerSends();
  await everyServerSends();
  expect(received).toHaveLength(2);
  expect(received[1]!.body).toBe(received[0]!.body);
});

it("raises an active release's failure rate over the threshold once, on every server that sees it", async () => {
  const release = await publishedRelease('contact');
  await store.history.activate('contact', release.id, 'ci');
  health = (_section, ids) =>
    Promise.resolve(
      Object.fromEntries(ids.map((id) => [id, { visits: 100, failures: 30, failureRate: 0.3, failuresByClass: {}, lcpP75: null, inpP75: null, clsP75: null }])),
    );
  for (const sender of senders) await sender.checkFailureRates();
  for (const sender of senders) await sender.checkFailureRates();
  await everyServerSends();
  const notices = received.map(({ body }) => JSON.parse(body) as { kind: string; release: string });
  expect(notices).toEqual([expect.objectContaining({ kind: 'failure-rate', release: release.id })]);
  health = () => Promise.resolve({});
});

it('checks the failure rate of the last whole hour by its clock, on its clock’s timer: an hour turns without waiting for it', async () => {
  // Checked to fail without the injected clock: the sender's own 60 s timer never fires within the test, and the hour would be the machine's.
  const clock = manualClock(new Date('2031-05-06T10:20:00Z'));
  const asked: string[] = [];
  const sender = startAlertSender({
    store,
    log: silentLogger,
    pollMs: 60_000,
    checkEveryMs: 60_000,
    clock,
    health: (_section, _ids, since) => {
      asked.push(since.toISOString());
      return Promise.resolve({});
    },
  });
  try {
    clock.advance(59_000);
    expect(asked).toEqual([]);
    clock.advance(1_000);
    await eventually(() => asked.length === 1, { what: 'the first check' });
    expect(asked).toEqual(['2031-05-06T09:00:00.000Z']);
    // 40 minutes on, past 11:00: the next check reads the hour 10:00-11:00.
    clock.advance(40 * 60_000);
    await eventually(() => asked.includes('2031-05-06T10:00:00.000Z'), { what: 'a check after the hour turned' });
  } finally {
    await sender.stop();
  }
});

it('never keeps an API answer waiting, even while the webhook does not answer', async () => {
  const held: ServerResponse[] = [];
  answerWith = (res) => held.push(res);
  const release = await publishedRelease();
  await store.releases.markBroken(release.id, 'gone again');
  let sent = false;
  const sending = senders[0]!.sendDue().then(() => (sent = true));
  await new Promise<void>((resolve) => {
    const check = () => (received.length > 0 ? resolve() : setTimeout(check, 10));
    check();
  });
  // The webhook holds its answer; the API answers all the same.
  const status = await call('GET', '/api/sections');
  expect(status.status).toBe(200);
  expect(sent).toBe(false);
  for (const res of held) res.writeHead(200).end();
  await sending;
});

// Issue 49: a person's abort was sent as "canary-decided", like a promotion. (Checked: fails before the console migration's second step.)
it("sends a person's abort as canary-aborted, and a promotion as canary-decided", async () => {
  for (const [section, decide, kind] of [
    ['contact', () => store.canaries.abort('contact', 'ana', 'abort'), 'canary-aborted'],
    ['home', () => store.canaries.promote('home', 'ana'), 'canary-decided'],
  ] as const) {
    const active = await publishedRelease(section);
    await store.history.activate(section, active.id, 'ci');
    const candidate = await publishedRelease(section);
    await store.canaries.start(section, candidate.id, { percent: 10 }, 'ana');
    await decide();
    await everyServerSends();
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ kind, section, release: candidate.id, detail: expect.stringMatching(/ by ana/) });
  }
});

// Issue 49: "Alerts saved" while nothing could be sent (no secret, no mail server). (Checked: fails without canSend and the test route.)
it('says what this server can send, and sends a test alert that answers each channel’s outcome', async () => {
  await call('PUT', '/api/alerts', { webhookUrl, email: 'ops@lender.example' });
  const withSender = await startControlApi({
    store,
    port: 0,
    publishChecks: noChecks,
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
    alerts: startAlertSender({ store, secret: SECRET, log: silentLogger, pollMs: 60_000, checkEveryMs: 60_000 }),
  });
  const unsigned = await startControlApi({
    store,
    port: 0,
    publishChecks: noChecks,
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
    alerts: startAlertSender({ store, log: silentLogger, pollMs: 60_000, checkEveryMs: 60_000 }),
  });
  const ask = (where: ControlApi, method: string, route: string) =>
    fetch(`${where.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
  try {
    expect(await (await ask(withSender, 'GET', '/api/alerts')).json()).toMatchObject({ canSend: { webhook: true, mail: false } });
    expect(await (await ask(unsigned, 'GET', '/api/alerts')).json()).toMatchObject({ canSend: { webhook: false, mail: false } });

    const tested = await ask(withSender, 'POST', '/api/alerts/test');
    expect(tested.status).toBe(200);
    expect(await tested.json()).toEqual({
      outcomes: expect.arrayContaining([
        { channel: 'webhook', sent: true, detail: 'the webhook answered 200' },
        { channel: 'mail', sent: false, detail: 'no PORTICO_SMTP_URL to send it through' },
      ]),
    });
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ kind: 'test', detail: `a test alert sent by environment` });
    expect(await (await ask(unsigned, 'POST', '/api/alerts/test')).json()).toEqual({
      outcomes: expect.arrayContaining([{ channel: 'webhook', sent: false, detail: 'no PORTICO_WEBHOOK_SECRET to sign it with' }]),
    });
    expect((await store.audit.list({ action: 'alerts' })).map((entry) => entry.detail)).toContainEqual(expect.stringMatching(/^test alert: webhook sent/));
  } finally {
    await withSender.close();
    await unsigned.close();
    await call('PUT', '/api/alerts', { email: null });
  }
});
