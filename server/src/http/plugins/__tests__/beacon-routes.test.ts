import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { BEACON_MAX_BYTES, BEACON_PATH, VISIT_PATH } from '@portico/contract/beacon';
import { httpRoot } from '@portico/platform/http';
import { silentLogger } from '@portico/platform/logging';
import { signVisitId, type TakenReport } from '@portico/releases';
import { beaconEndpoint, type BeaconEndpoint } from '../../../beacon/beacon-endpoint';
import { beaconRoutes } from '../beacon';

// The beacon's routes through Fastify's inject: what is checked before the
// body, how the body is read, what the endpoint is handed and what goes
// back. No socket is the point here (beacon-endpoint.test.ts sends real
// requests from many addresses; the floods and timeouts are the server's
// socket tests). The outcome counts were seen failing with the route's
// `refused` calls taken out.

const secret = randomBytes(32);
const page = { host: 'localhost:8080', origin: 'http://localhost:8080', 'content-type': 'text/plain;charset=UTF-8' };

/** A report of a visit id this server signed, for `home-1`. */
function report(): string {
  const visit = signVisitId(secret, { releases: { home: 'home-1' }, canaries: {} }, new Date(Date.now() + 60_000));
  return JSON.stringify({ v: 2, visit, sections: { home: { release: 'home-1', arrival: 'ssr' } }, vitals: {} });
}

describe('the beacon routes', () => {
  let app: FastifyInstance;
  let endpoint: BeaconEndpoint;
  const kept: TakenReport[] = [];

  beforeAll(async () => {
    endpoint = beaconEndpoint({
      health: { recordReports: (batch) => Promise.resolve(kept.push(...batch)) },
      secret: () => Promise.resolve(secret),
      log: silentLogger,
      limits: { flushMs: 3_600_000 },
    });
    app = Fastify();
    await app.register(httpRoot, { trustProxy: false });
    await app.register(beaconRoutes, { endpoint, served: () => undefined });
  });
  afterAll(async () => {
    await endpoint.close();
    await app.close();
  });

  test('a report from the page is taken (204, nothing cached) and kept for the database', async () => {
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: page, payload: report() });
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    await endpoint.flush();
    expect(kept.at(-1)?.counts).toEqual(expect.anything());
    expect(endpoint.outcomes().accepted).toBe(1);
  });

  test.each([
    ['another method', { method: 'PUT' as const }, 405],
    ['another site', { headers: { ...page, origin: 'https://attacker.example' } }, 403],
    ['a form', { headers: { ...page, 'content-type': 'application/x-www-form-urlencoded' } }, 415],
    ['latin-1', { headers: { ...page, 'content-type': 'text/plain; charset=latin1' } }, 415],
  ])('%s is refused before the body, in JSON, and counted as refused early', async (_what, request, status) => {
    const before = endpoint.outcomes()['refused-early'];
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: page, payload: report(), ...request });
    expect(answer.statusCode).toBe(status);
    expect(answer.json()).toEqual({ error: expect.any(String) });
    expect(endpoint.outcomes()['refused-early']).toBe(before + 1);
  });

  test('a body that is no JSON is refused 400 and counted as malformed; a request for a visit id that is none is not', async () => {
    const before = endpoint.outcomes().malformed;
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: page, payload: '{"v":' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'the body is not valid JSON' });
    expect(endpoint.outcomes().malformed).toBe(before + 1);
    const visit = await app.inject({ method: 'POST', url: VISIT_PATH, headers: page, payload: '{"token":' });
    expect(visit.statusCode).toBe(400);
    expect(endpoint.outcomes().malformed).toBe(before + 1);
  });

  test('a report over its cap is refused 413 and the connection closed', async () => {
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: page, payload: 'x'.repeat(BEACON_MAX_BYTES + 1) });
    expect(answer.statusCode).toBe(413);
    expect(answer.headers.connection).toBe('close');
  });

  test('a request for a visit id without a valid token is refused 400 in words', async () => {
    const answer = await app.inject({ method: 'POST', url: VISIT_PATH, headers: page, payload: JSON.stringify({ token: 'forged' }) });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatch(/^token: /);
  });
});

test('before the store is open, 503 with Retry-After: nothing can be verified or kept', async () => {
  const closed = beaconEndpoint({ health: () => undefined, secret: () => Promise.resolve(undefined), log: silentLogger, limits: { flushMs: 3_600_000 } });
  const app = Fastify();
  try {
    await app.register(httpRoot, { trustProxy: false });
    await app.register(beaconRoutes, { endpoint: closed, served: () => undefined });
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: page, payload: report() });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
  } finally {
    await closed.close();
    await app.close();
  }
});
