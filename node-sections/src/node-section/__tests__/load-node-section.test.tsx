import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { builtRemote } from '@portico/testing/built-apps';
import { hostShared } from '../../testing/host-shared';
import { renderSection } from '../../testing/render-section';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';
import { loadNodeSection, type LoadNodeSectionOptions } from '../load-node-section';
import { NodeSectionError, type NodeSectionRefusal } from '../node-section-error';

let dist: string;
let remote: DistServer;
let elsewhere: DistServer;
let manifestText: string;
let entryPath: string;

beforeAll(async () => {
  dist = builtRemote('remote-home');
  remote = await serveDist(dist);
  elsewhere = await serveDist(dist);
  manifestText = readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8');
  const { ssrRemoteEntry } = (JSON.parse(manifestText) as { metaData: { ssrRemoteEntry: { path: string; name: string } } }).metaData;
  entryPath = `/${ssrRemoteEntry.path}/${ssrRemoteEntry.name}`;
}, 300_000);

afterAll(async () => {
  await remote.close();
  await elsewhere.close();
});

afterEach(() => {
  remote.overrides.clear();
  remote.requests.length = 0;
  elsewhere.requests.length = 0;
});

const sha = (algorithm: string, text: string) => `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`;

function load(options: Partial<LoadNodeSectionOptions> = {}) {
  return loadNodeSection({ manifestUrl: `${remote.origin}/mf-manifest.json`, manifest: manifestText, shared: hostShared(), ...options });
}

async function refusal(loading: Promise<unknown>): Promise<NodeSectionRefusal> {
  const error: unknown = await loading.then(
    () => new Error('the section was loaded'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof NodeSectionError)) throw error;
  return error.refusal;
}

function manifestWith(change: (meta: Record<string, unknown>) => void): string {
  const manifest = JSON.parse(manifestText) as { metaData: Record<string, unknown> };
  change(manifest.metaData);
  return JSON.stringify(manifest);
}

// The section finds the caller's PorticoProvider: a copy of shared-config of
// its own would find none and throw, so both languages rendering shows it
// uses the one instance the caller gives.
test("Home's node build, fetched over HTTP and checked, renders on the server in both languages", async () => {
  const home = await load();
  expect(await renderSection(home)).toContain('<h2>A personal loan in three steps</h2>');
  expect(await renderSection(home, { language: 'id' })).toContain('<h2>Pinjaman pribadi dalam tiga langkah</h2>');
  expect(remote.requests).toEqual([entryPath]);
});

test('the node build is one file that calls no require, reads no process and imports nothing', () => {
  expect(readdirSync(path.join(dist, 'server'))).toEqual([entryPath.split('/').pop()]);
  const code = readFileSync(path.join(dist, entryPath), 'utf8');
  // `/* import() | home-text-en */` is webpack's comment where a dynamic
  // import was folded into the one file; a real one would need a chunk loader.
  expect(code.replace(/\/\*[^]*?\*\//g, '')).not.toMatch(/\brequire\(|__non_webpack_require__|process\.|import\(/);
});

test('a manifest matching its remoteIntegrity pin loads, with any of the three hashes', async () => {
  for (const algorithm of ['sha256', 'sha384', 'sha512']) {
    await expect(load({ remoteIntegrity: sha(algorithm, manifestText) })).resolves.toHaveProperty('Section');
  }
});

test('a manifest that does not match its pin is refused before anything is fetched', async () => {
  expect(await refusal(load({ remoteIntegrity: sha('sha384', `${manifestText} `) }))).toBe('pin');
  expect(await refusal(load({ remoteIntegrity: 'sha384-not base64!' }))).toBe('pin');
  expect(remote.requests).toEqual([]);
});

test('a tampered node build (its hash does not match the manifest) is refused and never runs', async () => {
  const original = readFileSync(path.join(dist, entryPath), 'utf8');
  remote.overrides.set(entryPath, { body: `${original}\nthrow new Error('tampered code ran');` });
  expect(await refusal(load())).toBe('integrity');
});

test("a node build on another origin than the manifest's is refused and not fetched", async () => {
  const foreign = manifestWith((meta) => {
    meta.ssrRemoteEntry = { ...(meta.ssrRemoteEntry as object), path: `${elsewhere.origin}/server` };
  });
  expect(await refusal(load({ manifest: foreign }))).toBe('origin');
  const viaPublicPath = manifestWith((meta) => {
    meta.publicPath = `${elsewhere.origin}/`;
  });
  expect(await refusal(load({ manifest: viaPublicPath }))).toBe('origin');
  expect(elsewhere.requests).toEqual([]);
});

test('a node build larger than the cap is refused, whether or not the server says its length', async () => {
  expect(await refusal(load({ maxBytes: 1000 }))).toBe('too-large');
  const code = readFileSync(path.join(dist, entryPath));
  remote.overrides.set(entryPath, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/javascript' });
    res.end(code); // no Content-Length: sent in chunks
  });
  expect(await refusal(load({ maxBytes: 1000 }))).toBe('too-large');
});

test('a server that never answers is given up on at the timeout', async () => {
  remote.overrides.set(entryPath, 'hang');
  // The server never answers: only the loader's own timeout ends this.
  expect(await refusal(load({ timeoutMs: 300 }))).toBe('timeout');
});

test('a missing node build, a redirect and a manifest that names none are refused with the reason', async () => {
  remote.overrides.set(entryPath, { status: 404, body: 'not found' });
  expect(await refusal(load())).toBe('http');
  remote.overrides.set(entryPath, (_req, res) => void res.writeHead(302, { Location: `${remote.origin}/remoteEntry.js` }).end());
  expect(await refusal(load())).toBe('http');
  expect(await refusal(load({ manifest: manifestWith((meta) => delete meta.ssrRemoteEntry) }))).toBe('manifest');
  expect(await refusal(load({ manifest: '<!doctype html>' }))).toBe('manifest');
});

test('a caller whose React is outside the range the section was built for is refused', async () => {
  expect(await refusal(load({ shared: hostShared({ react: '18.3.1', 'react/jsx-runtime': '18.3.1' }) }))).toBe('container');
});
