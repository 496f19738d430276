import { createHash, randomBytes } from 'node:crypto';
import { silentLogger } from '@portico/platform/logging';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BEACON_MAX_BYTES, BEACON_PATH, VISIT_PATH, type VisitReport } from '@portico/contract/beacon';
import { APP_DIRS, APP_NAMES, type SectionId } from '@portico/contract/sections';
import { canaryNetwork, clientNetwork } from '@portico/messages';
import type { Database } from '@portico/platform/database';
import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase, linesLogger } from '@portico/platform/testing';
import { HealthStore, ReleaseStore, signHealthToken, signVisitId, type Canary, type ServedState, type TakenReport } from '@portico/releases';
import Fastify from 'fastify';
import { closeNow, httpRoot } from '@portico/platform/http';
import { beaconRoutes } from '../../http/plugins/beacon';
import { startPortico, type RunningPortico } from '../../portico-server';
import { readSetting } from '@portico/platform/settings';
import { BEACON_REPORTS_PER_BLOCK, BEACON_REPORTS_PER_NETWORK, beaconEndpoint, type BeaconEndpoint } from '../beacon-endpoint';
import { VISIT_ID_SLACK } from '../visit-ledger';
import { eventually } from '@portico/testing/eventually';

// The beacon's contract through real HTTP, on a real page server whose
// releases come from a real store (a canary of Contact running), into the
// health store on both databases. Each test sends from loopback addresses
// of its own (127.0.0.x), so the per-network cap of one does not touch another.

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);
const UA_MARKER = 'PorticoUaMarker/7f3a9c';
/** A host the page server answers for that is not loopback: its visitors' pages are not secure contexts over plain HTTP. */
const PLAIN_HOST = 'portico.test';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request from `from` (a loopback address), as a browser's sendBeacon would send it unless told otherwise. */
function send(
  url: string,
  body: string | Buffer | undefined,
  options: { method?: string; headers?: Record<string, string>; from?: string; chunked?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers, localAddress: options.from ?? '127.0.0.1', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (options.chunked && body !== undefined) {
      // No Content-Length: the size is known only as the bytes arrive.
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += 1000) req.write(bytes.subarray(at, at + 1000));
      req.end();
    } else req.end(body);
  });
}

/**
 * A page on http://page.example, as its proxy (trusted by serveBeacon's
 * server) forwards it; the address a test names in X-Forwarded-For stands
 * for a /48's many /64s, which are not on this machine's loopback (the
 * namespace test sends from real ones).
 */
const PAGE_EXAMPLE = { Origin: 'http://page.example', 'X-Forwarded-Host': 'page.example' };

/** The beacon's two routes on a server of their own (as the host's port registers them, behind a proxy it trusts), serving `served`. */
async function serveBeacon(
  endpoint: BeaconEndpoint,
  served: () => ServedState | undefined = () => undefined,
): Promise<{ origin: string; close(): Promise<void> }> {
  const app = Fastify();
  await app.register(httpRoot, { trustProxy: true });
  await app.register(beaconRoutes, { endpoint, served });
  await app.ready();
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await closeNow(app.server);
      await app.close();
    },
  };
}

/** Four built apps of one file each: the page server needs a build to start, the beacon nothing of it. */
function fakeBuild(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-beacon-'));
  for (const app of APP_NAMES) {
    const dist = path.join(root, APP_DIRS[app], 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(dist, 'mf-manifest.json'), '{}');
  }
  return root;
}

describe.each(KINDS)('the beacon on the %s database', (kind) => {
  let database: TestDatabase;
  let db: Database;
  let store: ReleaseStore;
  let health: HealthStore;
  let secret: Buffer;
  let endpoint: BeaconEndpoint;
  /** A second server's endpoint on the same database: the record of counted ids is shared. */
  let other: BeaconEndpoint;
  let running: RunningPortico;
  let root: string;
  let base: string;
  /** The releases: Home's active one, Contact's active one and its canary's candidate. */
  let home: string;
  let contact: string;
  let candidate: string;
  let canary: Canary;
  const log: string[] = [];
  const apiSeen: string[] = [];
  const sent = { visits: [] as string[], tokens: [] as string[] };

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    db = await database.open();
    store = await ReleaseStore.open(db);
    health = await HealthStore.open(db);
    secret = await store.previewSecret();
    let builds = 0;
    const publish = async (section: SectionId) => {
      builds++;
      const input = {
        section,
        manifestUrl: `https://cdn.example/${section}/${builds}/mf-manifest.json`,
        integrity: `sha384-${builds}`,
        version: '1.0.0',
        buildId: `b${builds}`,
        createdBy: 'ci',
        checks: [],
      };
      return (await store.releases.publish(input)).release.id;
    };
    home = await publish('home');
    contact = await publish('contact');
    candidate = await publish('contact');
    await store.history.activate('home', home, 'integrator');
    await store.history.activate('contact', contact, 'integrator');
    canary = await store.canaries.start('contact', candidate, { percent: 50, minNetworks: 1 }, 'integrator');
    const options = {
      health,
      secret: () => store.previewSecret(),
      log: linesLogger((line) => log.push(line)),
      // The tests flush when they read.
      limits: { flushMs: 60_000 },
    };
    endpoint = beaconEndpoint(options);
    other = beaconEndpoint(options);
    root = fakeBuild();
    running = await startPortico({
      rootDir: root,
      basePort: 0,
      host: '127.0.0.1',
      hostnames: ['127.0.0.1', PLAIN_HOST],
      ssr: false,
      log: linesLogger((line) => log.push(line)),
      api: (app, _options, done) => {
        app.addContentTypeParser('*', (_request, payload, parsed) => void payload.resume().on('end', () => parsed(null, undefined)));
        app.all('/api/*', (request, reply) => {
          apiSeen.push(request.url);
          return reply.code(404).send();
        });
        done();
      },
      beacon: endpoint,
      releases: {
        read: () => store.releases.served(),
        watch: () => Promise.resolve({ close: () => Promise.resolve() }),
        openPreview: () => Promise.resolve({ refused: 'invalid' }),
        healthToken: (releases) => signHealthToken(secret, { releases }, new Date(Date.now() + 3_600_000)),
      },
    });
    base = `http://127.0.0.1:${running.ports[0]}`;
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await endpoint?.close();
    await other?.close();
    await db?.close();
    database?.cleanUp();
    rmSync(root, { recursive: true, force: true });
  });

  beforeEach(() => db.exec('TRUNCATE release_health, visit_ids, canary_network_counts'));

  const token = (releases: Partial<Record<SectionId, string>>, expiresAt = new Date(Date.now() + 3_600_000), key = secret) => {
    const signed = signHealthToken(key, { releases }, expiresAt);
    sent.tokens.push(signed);
    return signed;
  };
  /** A visit id as the server issues it (the issuing itself is tested through POST /api/visit below). */
  const visitId = (
    releases: Partial<Record<SectionId, string>>,
    options: { canaries?: Partial<Record<SectionId, number>>; expiresAt?: Date; key?: Buffer } = {},
  ) => {
    const id = signVisitId(options.key ?? secret, { releases, canaries: options.canaries ?? {} }, options.expiresAt ?? new Date(Date.now() + 3_600_000));
    sent.visits.push(id);
    return id;
  };
  const report = (overrides: Partial<VisitReport> = {}): VisitReport => ({
    v: 2,
    visit: overrides.visit ?? visitId({ home, contact }),
    sections: { home: { release: home, arrival: 'ssr' }, contact: { release: contact, arrival: 'failed', failure: 'render' } },
    vitals: { lcp: 2400, inp: 180, cls: 0.05, fcp: 1200, ttfb: 300 },
    ...overrides,
  });
  const post = (path: string, body: unknown, options: { headers?: Record<string, string>; from?: string; method?: string; chunked?: boolean } = {}) =>
    send(`${base}${path}`, typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), {
      ...options,
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', Origin: base, 'User-Agent': UA_MARKER, ...options.headers },
    });
  const beacon = (body: unknown, options: Parameters<typeof post>[2] = {}) => post(BEACON_PATH, body, options);
  const since = () => new Date(Date.now() - 3_600_000);
  const visits = async (section: SectionId, release: string) => {
    await endpoint.flush();
    await other.flush();
    return (await health.health(section, [release], since()))[release]!;
  };

  it('counts a valid report for each section its visit id names: 204, a visit, the arrival, the failure class and the vitals', async () => {
    const answer = await beacon(report(), { from: '127.0.0.2' });
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    // A Blob typed application/json is taken as well.
    expect((await beacon(report(), { from: '127.0.0.2', headers: { 'Content-Type': 'application/json' } })).status).toBe(204);
    expect(await visits('home', home)).toMatchObject({ visits: 2, failures: 0, failureRate: 0 });
    const counted = await visits('contact', contact);
    expect(counted).toMatchObject({ visits: 2, failures: 2, failureRate: 1, failuresByClass: { render: 2 } });
    expect(Math.abs(counted.lcpP75! - 2400)).toBeLessThanOrEqual(120);
    expect(Math.abs(counted.inpP75! - 180)).toBeLessThanOrEqual(9);
    expect(Math.abs(counted.clsP75! - 0.05)).toBeLessThanOrEqual(0.003);
    // The beacon's paths are the beacon's: the generic /api/ handler never saw them.
    expect(apiSeen).toEqual([]);
  });

  it('gathers a burst in memory and writes it in one batch, one row per key', async () => {
    for (let index = 0; index < 20; index++) expect((await beacon(report(), { from: '127.0.0.3' })).status).toBe(204);
    await endpoint.flush();
    const rows = await db.query<{ key: string; count: string }>(
      `SELECT key, count::text AS count FROM release_health WHERE release_id = $1 AND key IN ('visits', 'arrival:failed')`,
      [contact],
    );
    expect(rows.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'arrival:failed', count: '20' },
      { key: 'visits', count: '20' },
    ]);
  });

  it.each([
    ['not JSON', '{"v":2,'],
    ['JSON of another shape', JSON.stringify({ hello: 'world' })],
    ['the first version: a token and a nonce of its own, no visit id', JSON.stringify({ v: 1, token: 'a.b', nonce: 'abcdefgh12', sections: {}, vitals: {} })],
    // Any id the grammar allows may be an added section (the visit id's releases say which count); one it refuses is no section.
    ['a section id no section can have', JSON.stringify({ v: 2, visit: 'a.b', sections: { Pricing: { release: 'pricing-1', arrival: 'ssr' } }, vitals: {} })],
    [
      'a failure class on a section that arrived',
      JSON.stringify({ v: 2, visit: 'a.b', sections: { home: { release: 'home-3', arrival: 'ssr', failure: 'render' } }, vitals: {} }),
    ],
    ['a vital past its bound', JSON.stringify({ v: 2, visit: 'a.b', sections: {}, vitals: { lcp: 1e9 } })],
    ['a negative vital', JSON.stringify({ v: 2, visit: 'a.b', sections: {}, vitals: { cls: -0.1 } })],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['nothing', ''],
  ])('answers 400 to %s, counting nothing', async (_, body) => {
    const answer = await beacon(body, { from: '127.0.0.4' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String) });
    expect(await visits('home', home)).toMatchObject({ visits: 0 });
  });

  it('answers 413 to a report over the cap, declared or sent in chunks, and 415 to another content type', async () => {
    const large = JSON.stringify({ ...report(), padding: 'x'.repeat(BEACON_MAX_BYTES) });
    const declared = await beacon(large, { from: '127.0.0.5' });
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect((await beacon(large, { from: '127.0.0.5', chunked: true })).status).toBe(413);
    // Exactly at the cap is still read (and refused only for its shape).
    const atCap = JSON.stringify({ v: 2, pad: 'x'.repeat(BEACON_MAX_BYTES - JSON.stringify({ v: 2, pad: '' }).length) });
    expect(Buffer.byteLength(atCap)).toBe(BEACON_MAX_BYTES);
    expect((await beacon(atCap, { from: '127.0.0.5' })).status).toBe(400);
    expect((await beacon(report(), { from: '127.0.0.5', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await beacon(report(), { from: '127.0.0.5', headers: { 'Content-Type': 'text/plain; charset=latin1' } })).status).toBe(415);
    expect(await visits('home', home)).toMatchObject({ visits: 0 });
  });

  it.each([BEACON_PATH, VISIT_PATH])('answers 403 at %s to another Origin or none, and 405 to another method, counting and issuing nothing', async (path) => {
    const body = path === BEACON_PATH ? report() : { token: token({ home, contact }) };
    expect((await post(path, body, { from: '127.0.0.6', headers: { Origin: 'https://attacker.example' } })).status).toBe(403);
    expect((await post(path, body, { from: '127.0.0.6', headers: { Origin: base.replace('127.0.0.1', 'localhost') } })).status).toBe(403);
    const noOrigin = await send(`${base}${path}`, JSON.stringify(body), { from: '127.0.0.6', headers: { 'Content-Type': 'text/plain' } });
    expect(noOrigin.status).toBe(403);
    for (const method of ['GET', 'PUT']) {
      const answer = await post(path, method === 'GET' ? undefined : body, { from: '127.0.0.6', method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
    }
    // Only the page's port takes them; a remote's port answers GET only.
    expect((await send(`http://127.0.0.1:${running.ports[3]}${path}`, JSON.stringify(body), { headers: { Origin: base } })).status).toBe(405);
    expect(await visits('home', home)).toMatchObject({ visits: 0 });
  });

  it('counts nothing for a forged or expired visit id, nor for the page token in its place, and answers 204 all the same', async () => {
    const forged = await beacon(report({ visit: visitId({ home, contact }, { key: randomBytes(32) }) }), { from: '127.0.0.7' });
    expect(forged.status).toBe(204);
    const expired = await beacon(report({ visit: visitId({ home, contact }, { expiresAt: new Date(Date.now() - 1000) }) }), { from: '127.0.0.7' });
    expect(expired.status).toBe(204);
    // The token every page of these releases carries (in the cached page, in config.json) is not a visit id.
    expect((await beacon(report({ visit: token({ home, contact }) }), { from: '127.0.0.7' })).status).toBe(204);
    expect((await beacon(report({ visit: 'not-an-id' }), { from: '127.0.0.7' })).status).toBe(204);
    expect(await visits('home', home)).toMatchObject({ visits: 0 });
    expect(await visits('contact', contact)).toMatchObject({ visits: 0 });
  });

  it('counts a section only for the release its visit id names', async () => {
    // The id was issued for Contact's release only: Home, and Contact under another release, are dropped.
    const claimed = report({
      visit: visitId({ contact }),
      sections: { home: { release: home, arrival: 'failed', failure: 'timeout' }, contact: { release: contact, arrival: 'csr' } },
    });
    expect((await beacon(claimed, { from: '127.0.0.8' })).status).toBe(204);
    const otherRelease = report({ visit: visitId({ contact }), sections: { contact: { release: candidate, arrival: 'failed', failure: 'render' } } });
    expect((await beacon(otherRelease, { from: '127.0.0.8' })).status).toBe(204);
    expect(await visits('contact', contact)).toMatchObject({ visits: 1, failures: 0 });
    expect(await visits('home', home)).toMatchObject({ visits: 0 });
    expect(await visits('contact', candidate)).toMatchObject({ visits: 0 });
  });

  it('counts the same report sent twice (hidden, then pagehide) once, from any network, and once when replayed to another server on the database', async () => {
    const once = report();
    expect((await beacon(once, { from: '127.0.0.9' })).status).toBe(204);
    expect((await beacon(once, { from: '127.0.0.9' })).status).toBe(204);
    // From another network too: the id is the report's, not the source's.
    expect((await beacon(once, { from: '127.0.0.10' })).status).toBe(204);
    // The other server has never seen it: the record in the database has.
    const otherServer = await serveBeacon(other, () => running.releases());
    try {
      const { origin } = otherServer;
      const answer = await send(`${origin}${BEACON_PATH}`, JSON.stringify(once), {
        from: '127.0.0.11',
        headers: { 'Content-Type': 'text/plain', Origin: origin },
      });
      expect(answer.status).toBe(204);
      // Both servers hold it in memory, each flushes: the database keeps one.
      expect(await visits('home', home)).toMatchObject({ visits: 1 });
    } finally {
      await otherServer.close();
    }
  });

  it(`caps one source flooding at ${BEACON_REPORTS_PER_NETWORK} reports per window, while another source still counts`, async () => {
    for (let index = 0; index < BEACON_REPORTS_PER_NETWORK + 15; index++) {
      // Every report valid and distinct: a real page, reloaded in a loop.
      expect((await beacon(report(), { from: '127.0.0.12' })).status).toBe(204);
    }
    expect(await visits('home', home)).toMatchObject({ visits: BEACON_REPORTS_PER_NETWORK });
    expect((await beacon(report(), { from: '127.0.0.13' })).status).toBe(204);
    expect(await visits('home', home)).toMatchObject({ visits: BEACON_REPORTS_PER_NETWORK + 1 });
    // The log says it happened, not who.
    expect(log.some((line) => line.includes('over the per-network cap'))).toBe(true);
    expect(log.join('\n')).not.toContain('127.0.0.12');
  });

  describe('visit ids', () => {
    const page = (cookie: string, method = 'GET', headers: Record<string, string> = {}) =>
      send(`${base}/`, undefined, { method, headers: { cookie, ...headers } });
    /** The same page for a visitor on plain HTTP (a host that is not loopback): not a secure context, where a page cannot read its id. */
    const plainPage = (cookie: string, method = 'GET', headers: Record<string, string> = {}) =>
      page(cookie, method, { Host: `${PLAIN_HOST}:${running.ports[0]}`, ...headers });
    /** The visit id a page came with: its Server-Timing entry. */
    const visitIn = (answer: Answer) => /^visit;desc="([^"]+)"$/.exec(String(answer.headers['server-timing'] ?? ''))?.[1];
    const askFor = (releases: Partial<Record<SectionId, string>>, from = '127.0.0.14') =>
      post(VISIT_PATH, { token: token(releases) }, { from, headers: { 'Content-Type': 'application/json' } });
    /** Asks until refused: whatever this release set had in hand (earlier pages, the slack) is used up. */
    const drain = async (releases: Partial<Record<SectionId, string>>) => {
      for (let tries = 0; tries < 1000; tries++) if ((await askFor(releases)).status === 429) return;
      throw new Error('never refused');
    };
    const payload = (id: string) =>
      JSON.parse(Buffer.from(id.split('.')[0]!, 'base64url').toString('utf8')) as { r: Record<string, string>; k?: Record<string, number> };

    it('go with each page a secure context gets, and count against its pages: one more per page over plain HTTP, a small slack, then 429', async () => {
      const releases = { home, contact: candidate };
      await drain(releases);
      // Three pages of the candidate's cohort (bucket 3 is below its 50 %) over loopback: each with an id of its own, none left to ask for.
      const ids: (string | undefined)[] = [];
      for (let count = 0; count < 3; count++) {
        const answer = await page('portico_cohort=3');
        expect(answer.status).toBe(200);
        ids.push(visitIn(answer));
      }
      expect(new Set(ids).size).toBe(3);
      expect(ids.map((id) => payload(id!))).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ r: releases, k: { contact: canary.id } })));
      expect((await askFor(releases)).status).toBe(429);
      // Three over plain HTTP: the page cannot read an id there, so none goes with it; three to ask for, then refused again.
      for (let count = 0; count < 3; count++) {
        const answer = await plainPage('portico_cohort=3');
        expect([answer.status, answer.headers['server-timing']]).toEqual([200, undefined]);
      }
      for (let count = 0; count < 3; count++) expect((await askFor(releases)).status).toBe(200);
      const refused = await askFor(releases);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Pages of the other cohort are not this release set's.
      expect((await plainPage('portico_cohort=70')).status).toBe(200);
      expect((await askFor(releases)).status).toBe(429);
    });

    it('count a 304 (a page revalidated runs its script again), which carries a new id as a 200 does, but not a HEAD', async () => {
      const releases = { home, contact };
      await drain(releases);
      for (let count = 0; count < 3; count++) {
        const head = await page('portico_cohort=70', 'HEAD');
        expect([head.status, head.headers['server-timing']]).toEqual([200, undefined]);
      }
      expect((await askFor(releases)).status).toBe(429);
      const first = await page('portico_cohort=70');
      const again = await page('portico_cohort=70', 'GET', { 'If-None-Match': first.headers.etag as string });
      expect(again.status).toBe(304);
      expect(visitIn(again)).toEqual(expect.any(String));
      expect(visitIn(again)).not.toBe(visitIn(first));
      expect((await askFor(releases)).status).toBe(429);
      // Over plain HTTP a 304 lets the page ask for one.
      expect((await plainPage('portico_cohort=70', 'GET', { 'If-None-Match': first.headers.etag as string })).status).toBe(304);
      expect((await askFor(releases)).status).toBe(200);
      expect((await askFor(releases)).status).toBe(429);
    });

    it(`allow ${VISIT_ID_SLACK} ids per release set and window beyond the pages (a balancer may send the request to another server than the page's)`, async () => {
      const fresh = beaconEndpoint({
        health,
        secret: () => store.previewSecret(),
        log: silentLogger,
        limits: { flushMs: 60_000 },
      });
      const server = await serveBeacon(fresh, () => running.releases());
      try {
        const url = `${server.origin}${VISIT_PATH}`;
        const statuses = [];
        for (let count = 0; count < VISIT_ID_SLACK + 2; count++) {
          statuses.push(
            (
              await send(url, JSON.stringify({ token: token({ home, contact }) }), {
                headers: { 'Content-Type': 'application/json', ...PAGE_EXAMPLE },
              })
            ).status,
          );
        }
        expect(statuses).toEqual([...Array.from({ length: VISIT_ID_SLACK }, () => 200), 429, 429]);
      } finally {
        await fresh.close();
        await server.close();
      }
    });

    it('name the page’s releases and its section’s running canary; a report with one counts for that canary, under a hash of its network', async () => {
      expect((await plainPage('portico_cohort=3')).status).toBe(200);
      const answer = await askFor({ home, contact: candidate });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      const { visit } = JSON.parse(answer.body) as { visit: string };
      sent.visits.push(visit);
      expect(payload(visit)).toMatchObject({ r: { home, contact: candidate }, k: { contact: canary.id } });
      const taken = report({
        visit,
        sections: { home: { release: home, arrival: 'ssr' }, contact: { release: candidate, arrival: 'failed', failure: 'network' } },
      });
      expect((await beacon(taken, { from: '127.0.0.15' })).status).toBe(204);
      await endpoint.flush();
      const rows = await db.query<{ canary_id: string; network: string; release_id: string; key: string }>(
        "SELECT canary_id::text, encode(network, 'hex') AS network, release_id, key FROM canary_network_counts ORDER BY key",
      );
      expect(rows.map((row) => [row.canary_id, row.release_id, row.key.replace(/:\d+$/, '')])).toEqual([
        [String(canary.id), candidate, 'failures'],
        [String(canary.id), candidate, 'inp'],
        [String(canary.id), candidate, 'lcp'],
        [String(canary.id), candidate, 'visits'],
      ]);
      // The network is neither there as it is nor as its plain hash: only under the canary's key.
      expect(rows[0]!.network).toMatch(/^[0-9a-f]{32}$/);
      expect(rows[0]!.network).not.toBe(createHash('sha256').update('127.0.0.15').digest('hex').slice(0, 32));
      // An id issued before the canary (none named) counts for release_health, never for the canary.
      expect(
        (
          await beacon(report({ visit: visitId({ home, contact: candidate }), sections: { contact: { release: candidate, arrival: 'csr' } } }), {
            from: '127.0.0.15',
          })
        ).status,
      ).toBe(204);
      await endpoint.flush();
      expect((await db.query("SELECT 1 FROM canary_network_counts WHERE key = 'visits'")).length).toBe(1);
      expect(await visits('contact', candidate)).toMatchObject({ visits: 2 });
    });

    it('are refused for a token that is not the site’s (400), and unread without a body that is one (400)', async () => {
      const forged = await post(
        VISIT_PATH,
        { token: signHealthToken(randomBytes(32), { releases: { home } }, new Date(Date.now() + 60_000)) },
        { from: '127.0.0.16' },
      );
      expect(forged.status).toBe(400);
      expect(JSON.parse(forged.body)).toEqual({ error: expect.stringMatching(/^token: /) });
      expect((await post(VISIT_PATH, { token: 'x', more: 1 }, { from: '127.0.0.16' })).status).toBe(400);
      expect((await post(VISIT_PATH, '{', { from: '127.0.0.16' })).status).toBe(400);
    });
  });

  it('keeps nothing identifying: no address, user agent, visit id or token in any column of any table; a network only under its canary’s keyed hash', async () => {
    const addresses = ['127.0.0.21', '127.0.0.22', '127.0.0.23', '127.0.0.24'];
    for (const from of addresses) {
      const sections = { home: { release: home, arrival: 'ssr' as const }, contact: { release: candidate, arrival: 'csr' as const } };
      expect((await beacon(report({ visit: visitId({ home, contact: candidate }, { canaries: { contact: canary.id } }), sections }), { from })).status).toBe(
        204,
      );
    }
    await endpoint.flush();
    expect(await visits('home', home)).toMatchObject({ visits: addresses.length });
    // Four addresses of one /24: one network to the canary's judge.
    expect((await db.query("SELECT DISTINCT network FROM canary_network_counts WHERE key = 'visits'")).length).toBe(1);

    const tables = await db.query<{ schema: string; name: string }>(
      "SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'",
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['release_health', 'visit_ids', 'canary_network_counts']));
    let everything = '';
    for (const table of tables) {
      const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table.schema}"."${table.name}" t`);
      everything += rows.map((row) => row.row).join('\n');
    }
    expect(everything).toContain(home);
    const plainHashes = addresses.flatMap((address) => [
      createHash('sha256').update(address).digest('hex').slice(0, 32),
      createHash('sha256').update(clientNetwork(address)).digest('hex').slice(0, 32),
      createHash('sha256').update(canaryNetwork(address)).digest('hex').slice(0, 32),
    ]);
    const forbidden = [
      ...addresses,
      ...addresses.map(clientNetwork),
      ...addresses.map(canaryNetwork),
      '127.0.0.1',
      UA_MARKER,
      'PorticoUaMarker',
      ...sent.visits,
      ...sent.tokens,
      ...plainHashes,
    ];
    for (const value of forbidden) expect(everything.includes(value) ? value : 'absent').toBe('absent');
    // The health table has no column that could hold them.
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'release_health' ORDER BY ordinal_position",
    );
    expect(columns.map((column) => column.column_name)).toEqual(['section', 'release_id', 'hour', 'key', 'count']);
    // The canary's per-network rows go with it; what its judge left out stays (canary_bounded), with no column for a network.
    await store.canaries.abort('contact', 'integrator', 'abort');
    expect(await db.query('SELECT 1 FROM canary_network_counts')).toEqual([]);
    const bounded = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'canary_bounded' ORDER BY ordinal_position",
    );
    expect(bounded.map((column) => column.column_name)).toEqual(['canary_id', 'release_id', 'hour', 'key', 'count']);
    canary = await store.canaries.start('contact', candidate, { percent: 50, minNetworks: 1 }, 'integrator');
  });
});

test('forgets each network and visit id when its window ends, with no further report to sweep them', async () => {
  const secret = randomBytes(32);
  const endpoint = beaconEndpoint({
    health: { recordReports: () => Promise.resolve(0) },
    secret: () => Promise.resolve(secret),
    log: silentLogger,
    limits: { windowMs: 300, nonceMs: 300, flushMs: 50 },
  });
  const server = await serveBeacon(endpoint);
  try {
    const url = `${server.origin}${BEACON_PATH}`;
    const body = JSON.stringify({
      v: 2,
      visit: signVisitId(secret, { releases: { home: 'home-1' }, canaries: {} }, new Date(Date.now() + 60_000)),
      sections: { home: { release: 'home-1', arrival: 'ssr' } },
      vitals: {},
    });
    for (const from of ['127.0.0.31', '127.0.0.32'])
      expect((await send(url, body, { from, headers: { 'Content-Type': 'text/plain', ...PAGE_EXAMPLE } })).status).toBe(204);
    expect(endpoint.remembered()).toEqual({ networks: 1, nonces: 1 });
    await eventually(() => expect(endpoint.remembered()).toEqual({ networks: 0, nonces: 0 }), {
      what: 'both forgotten after their 300 ms window',
      withinMs: 5_000,
    });
  } finally {
    await endpoint.close();
    await server.close();
  }
});

// About 330 requests one after another: seconds on a busy machine, more than jest's default 5.
test(`counts at most ${BEACON_REPORTS_PER_BLOCK} reports per IPv6 /48 and window over all its /64s, each /64 still capped on its own`, async () => {
  const secret = randomBytes(32);
  let counted = 0;
  const endpoint = beaconEndpoint({
    health: { recordReports: (batch) => Promise.resolve((counted += batch.length)) },
    secret: () => Promise.resolve(secret),
    log: silentLogger,
    limits: { flushMs: 60_000 },
  });
  const server = await serveBeacon(endpoint);
  const reportFrom = (from: string) =>
    send(
      `${server.origin}${BEACON_PATH}`,
      JSON.stringify({
        v: 2,
        visit: signVisitId(secret, { releases: { home: 'home-1' }, canaries: {} }, new Date(Date.now() + 60_000)),
        sections: { home: { release: 'home-1', arrival: 'ssr' } },
        vitals: {},
      }),
      { headers: { 'Content-Type': 'text/plain', ...PAGE_EXAMPLE, 'X-Forwarded-For': from } },
    );
  const countedNow = async () => {
    await endpoint.flush();
    return counted;
  };
  try {
    // One /64 alone: its own cap.
    for (let index = 0; index < BEACON_REPORTS_PER_NETWORK + 2; index++) expect((await reportFrom('2001:db8:1:0::1')).status).toBe(204);
    expect(await countedNow()).toBe(BEACON_REPORTS_PER_NETWORK);
    // Its /48's other /64s, each well under its own cap: the /48 stops at its bound.
    const perSixtyFour = 10;
    for (let subnet = 1; (subnet - 1) * perSixtyFour < BEACON_REPORTS_PER_BLOCK; subnet++)
      for (let index = 0; index < perSixtyFour; index++) await reportFrom(`2001:db8:1:${subnet.toString(16)}::${index + 1}`);
    expect(await countedNow()).toBe(BEACON_REPORTS_PER_BLOCK);
    // Another /48, and an IPv4 address, still count.
    expect((await reportFrom('2001:db8:2:1::1')).status).toBe(204);
    expect((await reportFrom('203.0.113.9')).status).toBe(204);
    expect(await countedNow()).toBe(BEACON_REPORTS_PER_BLOCK + 2);
  } finally {
    await endpoint.close();
    await server.close();
  }
}, 60_000);

test('a per-client cap raised or lowered (PORTICO_BEACON_REPORTS_PER_NETWORK) moves its /48 bound with it: ten clients', async () => {
  const secret = randomBytes(32);
  let counted = 0;
  const endpoint = beaconEndpoint({
    health: { recordReports: (batch) => Promise.resolve((counted += batch.length)) },
    secret: () => Promise.resolve(secret),
    log: silentLogger,
    limits: { flushMs: 60_000, perNetwork: 2 },
  });
  const server = await serveBeacon(endpoint);
  try {
    for (let subnet = 1; subnet <= 12; subnet++) {
      for (const host of [1, 2]) {
        const visit = signVisitId(secret, { releases: { home: 'home-1' }, canaries: {} }, new Date(Date.now() + 60_000));
        await send(`${server.origin}${BEACON_PATH}`, JSON.stringify({ v: 2, visit, sections: { home: { release: 'home-1', arrival: 'ssr' } }, vitals: {} }), {
          headers: { 'Content-Type': 'text/plain', ...PAGE_EXAMPLE, 'X-Forwarded-For': `2001:db8:5:${subnet}::${host}` },
        });
      }
    }
    await endpoint.flush();
    expect(counted).toBe(20);
  } finally {
    await endpoint.close();
    await server.close();
  }
});

describe('the beacon without its database', () => {
  let server: Awaited<ReturnType<typeof serveBeacon>>;
  let url: string;
  let endpoint: BeaconEndpoint;
  let recorder: ((batch: readonly TakenReport[]) => Promise<number>) | undefined;
  const recorded: TakenReport[][] = [];
  const secret = randomBytes(32);
  const log: string[] = [];

  beforeAll(async () => {
    endpoint = beaconEndpoint({
      health: () => (recorder ? { recordReports: recorder } : undefined),
      secret: () => Promise.resolve(recorder ? secret : undefined),
      log: linesLogger((line) => log.push(line)),
      limits: { flushMs: 60_000 },
    });
    server = await serveBeacon(endpoint);
    url = `${server.origin}${BEACON_PATH}`;
  });
  afterAll(async () => {
    await endpoint.close();
    await server.close();
  });

  const post = () =>
    send(
      url,
      JSON.stringify({
        v: 2,
        visit: signVisitId(secret, { releases: { about: 'about-2' }, canaries: {} }, new Date(Date.now() + 60_000)),
        sections: { about: { release: 'about-2', arrival: 'csr' } },
        vitals: {},
      }),
      { headers: { 'Content-Type': 'text/plain', ...PAGE_EXAMPLE } },
    );

  it('answers 503 until the store is open: nothing can be verified or kept', async () => {
    const answer = await post();
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
  });

  it('keeps the counts while the database refuses them, answering 204 at once, and adds them once it takes them again', async () => {
    let down = true;
    recorder = (batch) => {
      if (down) return Promise.reject(new Error('connection refused'));
      recorded.push([...batch]);
      return Promise.resolve(batch.length);
    };
    for (let index = 0; index < 3; index++) expect((await post()).status).toBe(204);
    await endpoint.flush();
    expect(await post()).toMatchObject({ status: 204 });
    await endpoint.flush();
    expect(log.filter((line) => line.includes('the health store is unavailable'))).toHaveLength(1);
    down = false;
    await endpoint.flush();
    const reports = recorded.flat();
    expect(reports).toHaveLength(4);
    expect(new Set(reports.map((report) => report.visit)).size).toBe(4);
    for (const report of reports) expect(report.counts).toContainEqual({ section: 'about', releaseId: 'about-2', key: 'visits' });
    expect(log.at(-1)).toBe('beacon: the health store takes counts again');
  });
});

const reportsPerNetworkFrom = (env: Record<string, string>) => readSetting(env, 'PORTICO_BEACON_REPORTS_PER_NETWORK');

test('PORTICO_BEACON_REPORTS_PER_NETWORK raises or lowers the per-network bound; anything but a whole number from 1 to 100000 stops the start, named', () => {
  expect(reportsPerNetworkFrom({})).toBeUndefined();
  expect(reportsPerNetworkFrom({ PORTICO_BEACON_REPORTS_PER_NETWORK: ' 500 ' })).toBe(500);
  for (const bad of ['0', '100001', '2.5', 'many', '-3']) {
    expect(() => reportsPerNetworkFrom({ PORTICO_BEACON_REPORTS_PER_NETWORK: bad })).toThrow(
      `PORTICO_BEACON_REPORTS_PER_NETWORK must be a whole number from 1 to 100000, got "${bad}"`,
    );
  }
});
