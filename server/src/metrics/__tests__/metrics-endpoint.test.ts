import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BEACON_PATH, type VisitReport } from '@portico/contract/beacon';
import { apiRoutes, contactSettings, startContactService, type ContactService } from '@portico/messages';
import { eventually } from '@portico/testing/eventually';
import { silentLogger } from '@portico/platform/logging';
import { beaconEndpoint, type BeaconEndpoint } from '../../beacon/beacon-endpoint';
import { releaseFeed, startControlPlane, type ControlPlane } from '../../control-plane';
import { startPortico, type RunningPortico } from '../../portico-server';
import { visitorOf } from '@portico/platform/http';
import { dataHeaders } from '../../security-headers';
import { makeBuiltSite } from '../../__tests__/built-site';
import { metricSourcesOf } from '../metric-sources';
import { ServerMetrics } from '../server-metrics';
import { numberedBuilds } from '@portico/releases/testing';

// The metrics as `npm run serve` wires them (main.ts): the page server, the
// contact messages on the embedded database, the control plane with its
// GET /metrics, the beacon. A page, a contact post, a visit report and an
// activation each move what they should, and nothing a visitor sent (a
// token in a query string, a message's words, an address) reaches the text.
// Checked to fail without the change: no /metrics route (404), and with the
// route's counters not fed (the page's histogram, the stored count, the
// report outcomes, the release label each stayed absent or 0).

jest.setTimeout(60_000);

const OWNER = 'the-owner-token-of-the-metrics-endpoint-test';
const MARKER = 'zebra-quartz-7f3a';
let folder: string;
let site: ReturnType<typeof makeBuiltSite>;
let contact: ContactService;
let control: ControlPlane;
let beacon: BeaconEndpoint;
let running: RunningPortico;
let scraper: string;
const metrics = new ServerMetrics();

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-metrics-'));
  site = makeBuiltSite();
  contact = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: (req) => {
      const visitor = visitorOf(req, { trustProxy: false });
      return { origin: visitor.origin, address: visitor.address ?? 'unknown' };
    },
    log: silentLogger,
  });
  control = await startControlPlane(contact.database, {
    basePort: 0,
    ports: () => running?.ports ?? [],
    environmentToken: OWNER,
    listen: { port: 0, host: '127.0.0.1' },
    publicUrl: 'http://localhost',
    messages: contact.store,
    renderCheck: () => undefined,
    judgeCanaries: false,
    metrics: () => metrics.text(),
    log: silentLogger,
  });
  beacon = beaconEndpoint({
    health: control.health,
    secret: () => control.store.previewSecret(),
    log: silentLogger,
  });
  running = await startPortico({
    rootDir: site.root,
    basePort: 0,
    host: '127.0.0.1',
    ssr: false,
    api: (app, _options, done) => {
      void app.register(apiRoutes, { endpoint: () => contact.endpoint, headers: dataHeaders() });
      done();
    },
    beacon,
    releases: releaseFeed(Promise.resolve(control.store)),
    onAnswered: (app, route, status, seconds) => metrics.observeRequest(app, route, status, seconds),
    log: silentLogger,
  });
  metrics.watch(metricSourcesOf({ running: () => running, contact: () => contact, control: () => control, beacon: () => beacon }));
  scraper = (await control.store.tokens.create({ name: 'prometheus', scopes: ['metrics'], actor: 'test' })).token;
});

afterAll(async () => {
  await control?.close();
  await running?.close();
  await beacon?.close();
  await contact?.close();
  site?.remove();
  rmSync(folder, { recursive: true, force: true });
});

/** The control port's GET /metrics with the scraper's token: the text. */
async function scrape(): Promise<string> {
  const answer = await fetch(`${control.api.url}/metrics`, { headers: { Authorization: `Bearer ${scraper}` } });
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The value of one series (`name{labels}` exactly as the text writes it), or undefined when absent. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test("the page's port has no /metrics, with or without a token: only the control port answers it", async () => {
  const tries: Record<string, string>[] = [{}, { Authorization: `Bearer ${scraper}` }, { Authorization: `Bearer ${OWNER}` }];
  for (const headers of tries) {
    const answer = await fetch(`${running.url}/metrics`, { headers });
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('portico_');
  }
  expect((await fetch(`${control.api.url}/metrics`)).status).toBe(401);
});

test('a page asked with a token in its query string is counted by its route and status, and the query is nowhere in the text', async () => {
  const series = 'portico_http_request_duration_seconds_count{app="host",route="/",status="200"}';
  const before = valueOf(await scrape(), series) ?? 0;
  const page = await fetch(`${running.url}/?token=${MARKER}&preview=${MARKER}`);
  expect(page.status).toBe(200);
  await page.text();
  // Counted once the answer is out (onResponse), which the client may see first.
  await eventually(async () => (valueOf(await scrape(), series) ?? 0) === before + 1, { what: 'the page counted under route="/"' });
  const text = await scrape();
  expect(valueOf(text, 'portico_http_request_duration_seconds_bucket{le="5",app="host",route="/",status="200"}')).toBe(before + 1);
  expect(text).not.toContain(MARKER);
  expect(text).not.toContain('token=');
  // A file of the host's, under its wildcard route: never its name.
  await (await fetch(`${running.url}/main.0123456789.js?${MARKER}`)).text();
  await eventually(async () => (valueOf(await scrape(), 'portico_http_request_duration_seconds_count{app="host",route="/*",status="200"}') ?? 0) >= 1, {
    what: 'the file counted under route="/*"',
  });
  expect(await scrape()).not.toContain('main.0123456789.js');
});

/** A contact message carrying MARKER in its name and text, always the same (its key too): a second post is a repeat. */
const postMarkedMessage = () =>
  fetch(`${running.url}/api/contact`, {
    method: 'POST',
    headers: { Origin: running.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: `Asha ${MARKER}`,
      telephone: '+91 98765 43210',
      message: `Please call me ${MARKER}`,
      language: 'en',
      idempotencyKey: `key-${MARKER}`,
    }),
  });

test('a contact message stored moves the stored count and the outbox (no channel: it waits); its words and the sender are not in the text', async () => {
  const before = await scrape();
  expect(valueOf(before, 'portico_database_up')).toBe(1);
  expect(valueOf(before, 'portico_database_info{kind="embedded"}')).toBe(1);
  const stored = valueOf(before, 'portico_contact_messages_stored_total') ?? 0;
  const posted = await postMarkedMessage();
  expect(posted.status).toBe(201);
  const text = await scrape();
  expect(valueOf(text, 'portico_contact_messages_stored_total')).toBe(stored + 1);
  expect(valueOf(text, 'portico_contact_outbox_messages{state="waiting"}')).toBeGreaterThanOrEqual(1);
  expect(valueOf(text, 'portico_contact_outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
  expect(valueOf(text, 'portico_http_request_duration_seconds_count{app="host",route="/api/contact",status="201"}')).toBeGreaterThanOrEqual(1);
  for (const secret of [MARKER, '98765', 'Asha', '127.0.0.1', scraper, OWNER]) expect(text).not.toContain(secret);
  // The same message again is a repeat (200), not a second one stored.
  await postMarkedMessage();
  expect(valueOf(await scrape(), 'portico_contact_messages_stored_total')).toBe(stored + 1);
});

test("a release published and activated appears as the section's label, its activation is counted, and a visit report on it is accepted", async () => {
  const { release } = await control.store.releases.publish(numberedBuilds()('contact'));
  await control.store.history.activate('contact', release.id, 'integrator');
  const label = `portico_section_release_info{section="contact",release="${release.id}",state="active"}`;
  await eventually(async () => valueOf(await scrape(), label) === 1, { what: `${release.id} served and labelled`, withinMs: 20_000 });
  expect(valueOf(await scrape(), 'portico_release_actions_total{section="contact",action="activate"}')).toBe(1);

  // A visit: the page's id (Server-Timing), its report on the release it ran.
  const page = await fetch(`${running.url}/`);
  const visit = /visit;desc="([^"]+)"/.exec(page.headers.get('server-timing') ?? '')?.[1];
  expect(visit).toEqual(expect.any(String));
  const report = (body: VisitReport | string, origin = running.url) =>
    fetch(`${running.url}${BEACON_PATH}`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const taken: VisitReport = { v: 2, visit: visit!, sections: { contact: { release: release.id, arrival: 'csr' } }, vitals: { lcp: 1200 } };
  expect((await report(taken)).status).toBe(204);
  expect((await report(taken)).status).toBe(204);
  expect((await report('{"v":')).status).toBe(400);
  expect((await report(taken, 'https://evil.example')).status).toBe(403);
  const text = await scrape();
  expect(valueOf(text, 'portico_visit_reports_total{outcome="accepted"}')).toBe(1);
  expect(valueOf(text, 'portico_visit_reports_total{outcome="repeated-or-over-cap"}')).toBe(1);
  expect(valueOf(text, 'portico_visit_reports_total{outcome="malformed"}')).toBe(1);
  expect(valueOf(text, 'portico_visit_reports_total{outcome="refused-early"}')).toBe(1);
  expect(text).not.toContain(visit!);
});

test('the process metrics are in the instance registry, and two servers in one process keep their counts apart', async () => {
  const text = await scrape();
  expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  const pages = 'portico_http_request_duration_seconds_count{app="host",route="/",status="200"}';
  const served = valueOf(text, pages);
  const other = new ServerMetrics();
  other.observeRequest('host', '/', 200, 0.01);
  other.observeRequest('host', '/', 200, 0.3);
  const own = (await other.text()).text;
  const series = (suffix: string, le?: string) =>
    valueOf(own, `portico_http_request_duration_seconds_${suffix}{${le === undefined ? '' : `le="${le}",`}app="host",route="/",status="200"}`);
  // Cumulative buckets, a bound inclusive, as Prometheus reads them.
  expect([series('bucket', '0.005'), series('bucket', '0.01'), series('bucket', '0.25'), series('bucket', '0.5'), series('bucket', '+Inf')]).toEqual([
    0, 1, 1, 2, 2,
  ]);
  expect([series('sum'), series('count')]).toEqual([0.31, 2]);
  expect(valueOf(await scrape(), pages)).toBe(served);
});
