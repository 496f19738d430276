import { parseConfig } from '@portico/shared-config/config';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManifestRelay } from '../manifest-relay';

// The page reads a manifest it did not inline through its own origin
// (its CSP's connect-src is 'self'). The server fetches only what the page
// may load: a granted section's configured URL, or an override the rule
// allows; never a URL a visitor names elsewhere, nor a static section's.

let folder: string;
let cdn: DistServer;
let other: DistServer;
const MANIFEST = '{"name":"portico_contact"}';
/** A bound for a busy machine, not a speed claim: the server's own is 3 s. */
const RELAY_TIMEOUT_MS = 30_000;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-relay-'));
  writeFileSync(path.join(folder, 'mf-manifest.json'), MANIFEST);
  [cdn, other] = await Promise.all([serveDist(folder), serveDist(folder)]);
});
afterAll(async () => {
  await Promise.all([cdn.close(), other.close()]);
  rmSync(folder, { recursive: true, force: true });
});

const configWith = (extra: object = {}) =>
  parseConfig({
    remotes: { home: `${cdn.origin}/mf-manifest.json`, contact: `${cdn.origin}/mf-manifest.json` },
    allowedRemoteOrigins: [cdn.origin],
    ...extra,
  }).config;

test("a granted section's configured manifest is relayed byte for byte; a burst makes one request", async () => {
  const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
  const before = cdn.requests.length;
  const answers = await Promise.all([1, 2, 3].map(() => relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)));
  for (const answer of answers) expect('bytes' in answer ? answer.bytes.toString('utf8') : answer).toBe(MANIFEST);
  expect(cdn.requests.length - before).toBe(1);
});

test('nothing is fetched for a URL the page may not load, nor for a section granted no script', async () => {
  const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
  const before = [cdn.requests.length, other.requests.length];
  expect(await relay.get(configWith(), 'contact', `${other.origin}/mf-manifest.json`)).toMatchObject({
    status: 404,
    problem: expect.stringContaining("is not listed in config.json's allowedRemoteOrigins"),
  });
  expect(await relay.get(configWith(), 'home', `${cdn.origin}/mf-manifest.json`)).toMatchObject({
    status: 404,
    problem: expect.stringContaining('grants the home section no script'),
  });
  expect([cdn.requests.length, other.requests.length]).toEqual(before);
  // Granted by the integrator, Home's is relayed.
  expect(await relay.get(configWith({ sections: { home: { interactive: true } } }), 'home', `${cdn.origin}/mf-manifest.json`)).toHaveProperty('bytes');
});

test("the origin's error is passed on, and not kept: the page's retry asks again", async () => {
  const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
  const gone = `${cdn.origin}/gone/mf-manifest.json`;
  const before = cdn.requests.length;
  expect(await relay.get(configWith(), 'contact', gone)).toMatchObject({ status: 404, problem: 'answered HTTP 404' });
  await relay.get(configWith(), 'contact', gone);
  expect(cdn.requests.length - before).toBe(2);
});
