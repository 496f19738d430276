import { MANIFEST_MAX_BYTES } from '@portico/contract/manifest';
import { parseConfig } from '@portico/shared-config/config';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManifestRelay } from '../manifest-relay';

// The page reads a manifest it did not inline through its own origin (its
// CSP's connect-src is 'self'), so the relay must not become a way to make
// the server fetch anything else: only what the page may load (a granted
// section's configured URL, or an override the rule allows) is fetched; no
// redirect, no more than the manifest cap. And it must be the origin's
// answer as it came, nothing kept: the page's retries and pins depend on it.
// Each attack below was checked to reach the recording server (`cdn.requests`
// grew) with the relay's checks taken out.

let folder: string;
let cdn: DistServer;
let other: DistServer;
/** The least a page can read as a manifest (readManifest). */
const MANIFEST = '{"metaData":{},"exposes":[],"shared":[]}';
/** A bound for a busy machine, not a speed claim. */
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
afterEach(() => {
  cdn.overrides.clear();
  other.overrides.clear();
});

const configWith = (extra: object = {}) =>
  parseConfig({
    remotes: { home: `${cdn.origin}/mf-manifest.json`, about: `${cdn.origin}/about/mf-manifest.json`, contact: `${cdn.origin}/mf-manifest.json` },
    allowedRemoteOrigins: [cdn.origin],
    ...extra,
  }).config;

/** The requests each server got while `run` ran. */
async function requestsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const before = [cdn.requests.length, other.requests.length];
  await run();
  return [...cdn.requests.slice(before[0]), ...other.requests.slice(before[1])];
}

describe('a pass-through', () => {
  test("a granted section's configured manifest: the origin's bytes, unchanged; each request is one to the origin (nothing kept, so a retry asks again)", async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    const bytes = Buffer.from('{"metaData":{},"exposes":[],"shared":[],"é":"\\u00e9"}\n\n', 'utf8');
    cdn.overrides.set('/mf-manifest.json', { body: bytes });
    const seen = await requestsDuring(async () => {
      for (const _ of [1, 2, 3]) expect(await relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)).toEqual({ status: 200, bytes });
    });
    expect(seen).toEqual(['/mf-manifest.json', '/mf-manifest.json', '/mf-manifest.json']);
  });

  test.each([404, 500, 503])(
    "the origin's %i is passed on, without its body (the page tells transient from permanent by the status, as before)",
    async (status) => {
      const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
      cdn.overrides.set('/mf-manifest.json', { body: 'an internal error page: db=10.0.0.5', status });
      expect(await relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)).toEqual({ status, bytes: Buffer.alloc(0) });
    },
  );

  test.each([
    ['JSON of another kind', '{"users":[{"name":"admin","key":"s3cr3t"}]}', 'is not a Module Federation manifest (no metaData, exposes, shared)'],
    ['not JSON', 'root:x:0:0:root:/root:/bin/bash', 'is not JSON'],
  ])('an answer that is no manifest (%s) is not passed back: only the reason a page would have given', async (_what, body, reason) => {
    // An allowed override origin's other paths are the server's to reach and a browser's not to read (CORS): the relay must not read them for the page.
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    cdn.overrides.set('/internal/keys', { body });
    const answer = await relay.get(configWith(), 'contact', `${cdn.origin}/internal/keys`);
    expect(answer).toEqual({ status: 502, fault: 'not-a-manifest', problem: reason });
    expect(JSON.stringify(answer)).not.toContain(body.slice(0, 12));
  });

  test('an origin that never answers holds the request until the page goes away, then nothing is left waiting', async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    cdn.overrides.set('/mf-manifest.json', 'hang');
    const page = new AbortController();
    const answer = relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`, page.signal);
    await expect(Promise.race([answer, new Promise((resolve) => setTimeout(resolve, 300, 'still waiting'))])).resolves.toBe('still waiting');
    page.abort();
    expect(await answer).toMatchObject({ status: 502, fault: 'unreachable' });
  });

  test("an origin slower than the relay's own limit is `unreachable` (504), as the page's network error was", async () => {
    const relay = new ManifestRelay({ timeoutMs: 200 });
    cdn.overrides.set('/mf-manifest.json', 'hang');
    expect(await relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)).toMatchObject({ status: 504, fault: 'unreachable' });
  });
});

describe('no open proxy', () => {
  const refused = { status: 403, fault: 'refused' };

  test.each([
    ['another origin', () => `${other.origin}/mf-manifest.json`],
    ['another path of the configured origin', () => `${cdn.origin}/admin`],
    ['a user name in the URL', () => `${cdn.origin.replace('//', '//admin:secret@')}/mf-manifest.json`],
    ['another scheme', () => 'file:///etc/passwd'],
    ['a relative URL', () => '/config.json'],
  ])('%s is refused and nothing is fetched', async (_what, urlOf) => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    const url = urlOf();
    const seen = await requestsDuring(async () => expect(await relay.get(configWith({ allowedRemoteOrigins: [] }), 'contact', url)).toMatchObject(refused));
    expect(seen).toEqual([]);
  });

  test('an allowed override origin may be read for any shown section granted script, as the override rule allows', async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    const seen = await requestsDuring(async () =>
      expect(await relay.get(configWith(), 'contact', `${cdn.origin}/v2/mf-manifest.json`)).toMatchObject({ status: 404 }),
    );
    expect(seen).toEqual(['/v2/mf-manifest.json']);
  });

  test('a section granted no script gets nothing, its configured URL included; granted by the integrator, it does', async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    const seen = await requestsDuring(async () => {
      expect(await relay.get(configWith(), 'home', `${cdn.origin}/mf-manifest.json`)).toMatchObject({
        ...refused,
        problem: expect.stringContaining('grants the home section no script'),
      });
      expect(await relay.get(configWith(), 'about', `${cdn.origin}/about/mf-manifest.json`)).toMatchObject(refused);
    });
    expect(seen).toEqual([]);
    expect(await relay.get(configWith({ sections: { home: { interactive: true } } }), 'home', `${cdn.origin}/mf-manifest.json`)).toMatchObject({ status: 200 });
  });

  test('a section the page does not show (not an id, not listed, hidden) gets nothing', async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    const url = `${cdn.origin}/mf-manifest.json`;
    const added = { faq: { labels: { en: 'FAQ', id: 'Tanya Jawab' }, interactive: true } };
    const seen = await requestsDuring(async () => {
      for (const section of ['../contact', 'Contact', '__proto__', 'constructor', 'faq']) {
        expect(await relay.get(configWith({ sections: { faq: { interactive: true } } }), section, url)).toMatchObject(refused);
      }
      // Listed and granted, but hidden by the integrator.
      const hidden = configWith({ remotes: { ...configWith().remotes, faq: url }, sections: { faq: { ...added.faq, hidden: true } } });
      expect(await relay.get(hidden, 'faq', url)).toMatchObject(refused);
    });
    expect(seen).toEqual([]);
    // Listed, with a manifest URL and granted: an added section is relayed like a built-in one.
    const shown = configWith({ remotes: { ...configWith().remotes, faq: url }, sections: added });
    expect(await relay.get(shown, 'faq', url)).toMatchObject({ status: 200 });
  });

  test("a redirect is not followed, to the origin's own path or elsewhere", async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    for (const location of [`${other.origin}/secret`, '/elsewhere.json']) {
      cdn.overrides.set('/mf-manifest.json', (_req, res) => res.writeHead(302, { Location: location }).end());
      const seen = await requestsDuring(async () =>
        expect(await relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)).toMatchObject({ status: 502, fault: 'redirected' }),
      );
      expect(seen).toEqual(['/mf-manifest.json']);
    }
  });

  test('a manifest over the cap is not passed on, whether its length is declared or not', async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS });
    const big = Buffer.alloc(MANIFEST_MAX_BYTES + 1, 0x20);
    cdn.overrides.set('/mf-manifest.json', (_req, res) => res.writeHead(200, { 'Content-Length': big.length }).end(big));
    expect(await relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)).toMatchObject({ status: 502, fault: 'too-large' });
    cdn.overrides.set('/mf-manifest.json', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(big.subarray(0, MANIFEST_MAX_BYTES));
      res.end(big.subarray(MANIFEST_MAX_BYTES));
    });
    expect(await relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`)).toMatchObject({ status: 502, fault: 'too-large' });
  });

  test('relays at most so many at once: beyond, `busy` (503, which the page retries), nothing fetched', async () => {
    const relay = new ManifestRelay({ timeoutMs: RELAY_TIMEOUT_MS, maxInFlight: 1 });
    cdn.overrides.set('/mf-manifest.json', 'hang');
    const page = new AbortController();
    const first = relay.get(configWith(), 'contact', `${cdn.origin}/mf-manifest.json`, page.signal);
    const seen = await requestsDuring(async () =>
      expect(await relay.get(configWith(), 'contact', `${cdn.origin}/v2/mf-manifest.json`)).toMatchObject({ status: 503, fault: 'busy' }),
    );
    expect(seen).toEqual([]);
    page.abort();
    await first;
  });
});
