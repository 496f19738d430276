import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BEACON_MAX_BYTES, BEACON_PATH, type VisitReport } from '@portico/contract/beacon';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { clientNetwork, type Database } from '@portico/messages';
import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/messages/testing';
import { HealthStore, ReleaseStore, signHealthToken, type HealthCount } from '@portico/releases';
import { startPortico, type RunningPortico } from '../../portico-server';
import { visitorOf } from '../../request-origin';
import { BEACON_REPORTS_PER_NETWORK, beaconEndpoint, reportsPerNetworkFrom, type BeaconEndpoint } from '../beacon-endpoint';

// The beacon's contract through real HTTP, on a real page server, into the
// health store on both databases. Each test sends from loopback addresses
// of its own (127.0.0.x), so the per-network cap of one does not touch another.

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);
const UA_MARKER = 'PorticoUaMarker/7f3a9c';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request from `from` (a loopback address), as a browser's sendBeacon would send it unless told otherwise. */
function send(url: string, body: string | Buffer | undefined, options: { method?: string; headers?: Record<string, string>; from?: string; chunked?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'POST', headers: options.headers, localAddress: options.from ?? '127.0.0.1', agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (options.chunked && body !== undefined) {
      // No Content-Length: the size is known only as the bytes arrive.
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += 1000) req.write(bytes.subarray(at, at + 1000));
      req.end();
    } else req.end(body);
  });
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
  let health: HealthStore;
  let secret: Buffer;
  let endpoint: BeaconEndpoint;
  let running: RunningPortico;
  let root: string;
  let base: string;
  const log: string[] = [];
  const apiSeen: string[] = [];
  const sent = { nonces: [] as string[], tokens: [] as string[] };

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    db = await database.open();
    const releases = await ReleaseStore.open(db);
    health = await HealthStore.open(db);
    secret = await releases.previewSecret();
    endpoint = beaconEndpoint({
      health,
      secret: () => releases.previewSecret(),
      originOf: (req) => visitorOf(req, { trustProxy: false }).origin,
      networkOf: (req) => clientNetwork(visitorOf(req, { trustProxy: false }).address ?? 'unknown'),
      log: (line) => log.push(line),
      // The tests flush when they read.
      limits: { flushMs: 60_000 },
    });
    root = fakeBuild();
    running = await startPortico({
      rootDir: root,
      basePort: 0,
      host: '127.0.0.1',
      ssr: false,
      log: (line) => log.push(line),
      api: (req, res) => {
        apiSeen.push(req.url ?? '');
        res.writeHead(404).end();
      },
      beacon: endpoint,
    });
    base = `http://127.0.0.1:${running.ports[0]}`;
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await endpoint?.close();
    await db?.close();
    database?.cleanUp();
    rmSync(root, { recursive: true, force: true });
  });

  beforeEach(() => db.exec('TRUNCATE release_health'));

  const token = (releases: Partial<Record<'home' | 'about' | 'contact', string>>, expiresAt = new Date(Date.now() + 3_600_000), key = secret) => {
    const signed = signHealthToken(key, { releases }, expiresAt);
    sent.tokens.push(signed);
    return signed;
  };
  const report = (overrides: Partial<VisitReport> = {}): VisitReport => {
    const nonce = randomUUID();
    sent.nonces.push(nonce);
    return {
      v: 1,
      token: overrides.token ?? token({ home: 'home-3', contact: 'contact-9' }),
      nonce,
      sections: { home: { release: 'home-3', arrival: 'ssr' }, contact: { release: 'contact-9', arrival: 'failed', failure: 'render' } },
      vitals: { lcp: 2400, inp: 180, cls: 0.05, fcp: 1200, ttfb: 300 },
      ...overrides,
    };
  };
  const beacon = (body: unknown, options: { headers?: Record<string, string>; from?: string; method?: string; chunked?: boolean } = {}) =>
    send(`${base}${BEACON_PATH}`, typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), {
      ...options,
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', Origin: base, 'User-Agent': UA_MARKER, ...options.headers },
    });
  const since = () => new Date(Date.now() - 3_600_000);
  const visits = async (section: 'home' | 'about' | 'contact', release: string) => {
    await endpoint.flush();
    return (await health.health(section, [release], since()))[release]!;
  };

  it('counts a valid report for each section its token names: 204, a visit, the arrival, the failure class and the vitals', async () => {
    const answer = await beacon(report(), { from: '127.0.0.2' });
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    // A Blob typed application/json is taken as well.
    expect((await beacon(report(), { from: '127.0.0.2', headers: { 'Content-Type': 'application/json' } })).status).toBe(204);
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 2, failures: 0, failureRate: 0 });
    const contact = await visits('contact', 'contact-9');
    expect(contact).toMatchObject({ visits: 2, failures: 2, failureRate: 1, failuresByClass: { render: 2 } });
    expect(Math.abs(contact.lcpP75! - 2400)).toBeLessThanOrEqual(120);
    expect(Math.abs(contact.inpP75! - 180)).toBeLessThanOrEqual(9);
    expect(Math.abs(contact.clsP75! - 0.05)).toBeLessThanOrEqual(0.003);
    // The beacon's path is the beacon's: the generic /api/ handler never saw it.
    expect(apiSeen).toEqual([]);
  });

  it('gathers a burst in memory and writes it as one row per key', async () => {
    for (let index = 0; index < 20; index++) expect((await beacon(report(), { from: '127.0.0.3' })).status).toBe(204);
    await endpoint.flush();
    const rows = await db.query<{ key: string; count: string }>("SELECT key, count::text AS count FROM release_health WHERE release_id = 'contact-9' AND key IN ('visits', 'arrival:failed')");
    expect(rows.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'arrival:failed', count: '20' },
      { key: 'visits', count: '20' },
    ]);
  });

  it.each([
    ['not JSON', '{"v":1,'],
    ['JSON of another shape', JSON.stringify({ hello: 'world' })],
    ['an unknown section', JSON.stringify({ v: 1, token: 'a.b', nonce: 'abcdefgh12', sections: { pricing: { release: 'pricing-1', arrival: 'ssr' } }, vitals: {} })],
    ['a failure class on a section that arrived', JSON.stringify({ v: 1, token: 'a.b', nonce: 'abcdefgh12', sections: { home: { release: 'home-3', arrival: 'ssr', failure: 'render' } }, vitals: {} })],
    ['a vital past its bound', JSON.stringify({ v: 1, token: 'a.b', nonce: 'abcdefgh12', sections: {}, vitals: { lcp: 1e9 } })],
    ['a negative vital', JSON.stringify({ v: 1, token: 'a.b', nonce: 'abcdefgh12', sections: {}, vitals: { cls: -0.1 } })],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['nothing', ''],
  ])('answers 400 to %s, counting nothing', async (_, body) => {
    const answer = await beacon(body, { from: '127.0.0.4' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String) });
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 0 });
  });

  it('answers 413 to a report over the cap, declared or sent in chunks, and 415 to another content type', async () => {
    const large = JSON.stringify({ ...report(), padding: 'x'.repeat(BEACON_MAX_BYTES) });
    const declared = await beacon(large, { from: '127.0.0.5' });
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect((await beacon(large, { from: '127.0.0.5', chunked: true })).status).toBe(413);
    // Exactly at the cap is still read (and refused only for its shape).
    const atCap = JSON.stringify({ v: 1, pad: 'x'.repeat(BEACON_MAX_BYTES - JSON.stringify({ v: 1, pad: '' }).length) });
    expect(Buffer.byteLength(atCap)).toBe(BEACON_MAX_BYTES);
    expect((await beacon(atCap, { from: '127.0.0.5' })).status).toBe(400);
    expect((await beacon(report(), { from: '127.0.0.5', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await beacon(report(), { from: '127.0.0.5', headers: { 'Content-Type': 'text/plain; charset=latin1' } })).status).toBe(415);
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 0 });
  });

  it("answers 403 to another Origin or none, and 405 to another method, counting nothing", async () => {
    expect((await beacon(report(), { from: '127.0.0.6', headers: { Origin: 'https://attacker.example' } })).status).toBe(403);
    expect((await beacon(report(), { from: '127.0.0.6', headers: { Origin: base.replace('127.0.0.1', 'localhost') } })).status).toBe(403);
    const noOrigin = await send(`${base}${BEACON_PATH}`, JSON.stringify(report()), { from: '127.0.0.6', headers: { 'Content-Type': 'text/plain' } });
    expect(noOrigin.status).toBe(403);
    for (const method of ['GET', 'PUT']) {
      const answer = await beacon(method === 'GET' ? undefined : report(), { from: '127.0.0.6', method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
    }
    // Only the page's port takes reports; a remote's port answers GET only.
    expect((await send(`http://127.0.0.1:${running.ports[3]}${BEACON_PATH}`, JSON.stringify(report()), { headers: { Origin: base } })).status).toBe(405);
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 0 });
  });

  it('counts nothing for a forged or expired token, and answers 204 all the same', async () => {
    const forged = await beacon(report({ token: token({ home: 'home-3', contact: 'contact-9' }, undefined, randomBytes(32)) }), { from: '127.0.0.7' });
    expect(forged.status).toBe(204);
    const expired = await beacon(report({ token: token({ home: 'home-3', contact: 'contact-9' }, new Date(Date.now() - 1000)) }), { from: '127.0.0.7' });
    expect(expired.status).toBe(204);
    const garbage = await beacon(report({ token: 'not-a-token' }), { from: '127.0.0.7' });
    expect(garbage.status).toBe(204);
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 0 });
    expect(await visits('contact', 'contact-9')).toMatchObject({ visits: 0 });
  });

  it('counts a section only for the release its token names', async () => {
    // The token was signed for contact-9 only: home, and contact under another release, are dropped.
    const claimed = report({
      token: token({ contact: 'contact-9' }),
      sections: { home: { release: 'home-3', arrival: 'failed', failure: 'timeout' }, contact: { release: 'contact-9', arrival: 'csr' } },
    });
    expect((await beacon(claimed, { from: '127.0.0.8' })).status).toBe(204);
    const otherRelease = report({ token: token({ contact: 'contact-9' }), sections: { contact: { release: 'contact-1', arrival: 'failed', failure: 'render' } } });
    expect((await beacon(otherRelease, { from: '127.0.0.8' })).status).toBe(204);
    expect(await visits('contact', 'contact-9')).toMatchObject({ visits: 1, failures: 0 });
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 0 });
    expect(await visits('contact', 'contact-1')).toMatchObject({ visits: 0 });
  });

  it('counts the same report sent twice (hidden, then pagehide) once', async () => {
    const once = report();
    expect((await beacon(once, { from: '127.0.0.9' })).status).toBe(204);
    expect((await beacon(once, { from: '127.0.0.9' })).status).toBe(204);
    // From another network too: the nonce is the report's, not the source's.
    expect((await beacon(once, { from: '127.0.0.10' })).status).toBe(204);
    expect(await visits('home', 'home-3')).toMatchObject({ visits: 1 });
  });

  it(`caps one source flooding at ${BEACON_REPORTS_PER_NETWORK} reports per window, while another source still counts`, async () => {
    for (let index = 0; index < BEACON_REPORTS_PER_NETWORK + 15; index++) {
      // Every report valid and distinct: a real page, reloaded in a loop.
      expect((await beacon(report(), { from: '127.0.0.11' })).status).toBe(204);
    }
    expect(await visits('home', 'home-3')).toMatchObject({ visits: BEACON_REPORTS_PER_NETWORK });
    expect((await beacon(report(), { from: '127.0.0.12' })).status).toBe(204);
    expect(await visits('home', 'home-3')).toMatchObject({ visits: BEACON_REPORTS_PER_NETWORK + 1 });
    // The log says it happened, not who.
    expect(log.some((line) => line.includes('over the per-network cap'))).toBe(true);
    expect(log.join('\n')).not.toContain('127.0.0.11');
  });

  it('keeps nothing identifying: no address, user agent, nonce or token in any column of any table', async () => {
    const addresses = ['127.0.0.21', '127.0.0.22', '127.0.0.23', '127.0.0.24'];
    for (const from of addresses) expect((await beacon(report(), { from })).status).toBe(204);
    await endpoint.flush();
    expect(await visits('home', 'home-3')).toMatchObject({ visits: addresses.length });

    const tables = await db.query<{ schema: string; name: string }>(
      "SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'",
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['release_health']));
    let everything = '';
    for (const table of tables) {
      const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table.schema}"."${table.name}" t`);
      everything += rows.map((row) => row.row).join('\n');
    }
    expect(everything).toContain('home-3');
    const forbidden = [...addresses, ...addresses.map(clientNetwork), '127.0.0.1', UA_MARKER, 'PorticoUaMarker', ...sent.nonces, ...sent.tokens];
    for (const value of forbidden) expect(everything.includes(value) ? value : 'absent').toBe('absent');
    // The health table has no column that could hold them.
    const columns = await db.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_name = 'release_health' ORDER BY ordinal_position");
    expect(columns.map((column) => column.column_name)).toEqual(['section', 'release_id', 'hour', 'key', 'count']);
  });
});

test('forgets each network and nonce when its window ends, with no further report to sweep them', async () => {
  const secret = randomBytes(32);
  const endpoint = beaconEndpoint({
    health: { record: () => Promise.resolve() },
    secret: () => Promise.resolve(secret),
    originOf: () => 'http://page.example',
    networkOf: (req) => req.socket.remoteAddress ?? 'unknown',
    log: () => undefined,
    limits: { windowMs: 300, nonceMs: 300, flushMs: 50 },
  });
  const server = createServer((req, res) => void endpoint.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BEACON_PATH}`;
    const body = JSON.stringify({ v: 1, token: signHealthToken(secret, { releases: { home: 'home-1' } }, new Date(Date.now() + 60_000)), nonce: randomUUID(), sections: { home: { release: 'home-1', arrival: 'ssr' } }, vitals: {} });
    for (const from of ['127.0.0.31', '127.0.0.32']) expect((await send(url, body, { from, headers: { 'Content-Type': 'text/plain', Origin: 'http://page.example' } })).status).toBe(204);
    expect(endpoint.remembered()).toEqual({ networks: 1, nonces: 1 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(endpoint.remembered()).toEqual({ networks: 0, nonces: 0 });
  } finally {
    await endpoint.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('the beacon without its database', () => {
  let server: Server;
  let url: string;
  let endpoint: BeaconEndpoint;
  let recorder: ((batch: readonly HealthCount[]) => Promise<void>) | undefined;
  const recorded: HealthCount[][] = [];
  const secret = randomBytes(32);
  const log: string[] = [];

  beforeAll(async () => {
    endpoint = beaconEndpoint({
      health: () => (recorder ? { record: recorder } : undefined),
      secret: () => Promise.resolve(recorder ? secret : undefined),
      originOf: () => 'http://page.example',
      networkOf: () => 'one network',
      log: (line) => log.push(line),
      limits: { flushMs: 60_000 },
    });
    server = createServer((req, res) => void endpoint.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BEACON_PATH}`;
  });
  afterAll(async () => {
    await endpoint.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = () =>
    send(
      url,
      JSON.stringify({ v: 1, token: signHealthToken(secret, { releases: { about: 'about-2' } }, new Date(Date.now() + 60_000)), nonce: randomUUID(), sections: { about: { release: 'about-2', arrival: 'csr' } }, vitals: {} }),
      { headers: { 'Content-Type': 'text/plain', Origin: 'http://page.example' } },
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
      return Promise.resolve();
    };
    for (let index = 0; index < 3; index++) expect((await post()).status).toBe(204);
    await endpoint.flush();
    expect(await post()).toMatchObject({ status: 204 });
    await endpoint.flush();
    expect(log.filter((line) => line.includes('the health store is unavailable'))).toHaveLength(1);
    down = false;
    await endpoint.flush();
    const visits = recorded.flat().filter((count) => count.key === 'visits');
    expect(visits).toEqual([expect.objectContaining({ section: 'about', releaseId: 'about-2', count: 4 })]);
    expect(log.at(-1)).toBe('beacon: the health store takes counts again');
  });
});

test('PORTICO_BEACON_REPORTS_PER_NETWORK raises or lowers the per-network bound; anything but a whole number from 1 to 100000 stops the start, named', () => {
  expect(reportsPerNetworkFrom({})).toBeUndefined();
  expect(reportsPerNetworkFrom({ PORTICO_BEACON_REPORTS_PER_NETWORK: ' 500 ' })).toBe(500);
  for (const bad of ['0', '100001', '2.5', 'many', '-3']) {
    expect(() => reportsPerNetworkFrom({ PORTICO_BEACON_REPORTS_PER_NETWORK: bad })).toThrow(`PORTICO_BEACON_REPORTS_PER_NETWORK must be a whole number from 1 to 100000, got "${bad}"`);
  }
});
