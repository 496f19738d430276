import { RELAY_FAULT_HEADER, sectionManifestPath } from '@portico/contract/manifest-relay';
import { silentLogger } from '@portico/platform/logging';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPortico, type RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';

// GET /section-manifest/<section>?url= on the page's origin, as a visitor
// (or an attacker) reaches it: the origin's answer for what the page may
// load, and nothing fetched for anything else. Checked to fail with the
// route's method and parameter checks taken out (the CDN saw the requests).

const MANIFEST = '{"metaData":{},"exposes":[],"shared":[],"name":"portico_contact"}';
const site = makeBuiltSite();
let folder: string;
let cdn: DistServer;
let running: RunningPortico;
let page: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-relay-route-'));
  writeFileSync(path.join(folder, 'mf-manifest.json'), MANIFEST);
  cdn = await serveDist(folder);
  const configPath = path.join(folder, 'config.json');
  const remotes = { home: `${cdn.origin}/mf-manifest.json`, about: `${cdn.origin}/mf-manifest.json`, contact: `${cdn.origin}/mf-manifest.json` };
  writeFileSync(configPath, JSON.stringify({ remotes, allowedRemoteOrigins: [] }));
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', configPath, ssr: false, log: silentLogger });
  page = `http://127.0.0.1:${running.ports[0]}`;
});
afterAll(async () => {
  await Promise.all([running.close(), cdn.close()]);
  site.remove();
  rmSync(folder, { recursive: true, force: true });
});

const contactPath = () => sectionManifestPath('contact', `${cdn.origin}/mf-manifest.json`);

test("Contact's configured manifest: the origin's bytes, never cached, a request to the origin each time", async () => {
  const before = cdn.requests.length;
  for (const _ of [1, 2]) {
    const answer = await fetch(`${page}${contactPath()}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get(RELAY_FAULT_HEADER)).toBeNull();
    expect(await answer.text()).toBe(MANIFEST);
  }
  expect(cdn.requests.length - before).toBe(2);
});

test.each([
  ['HEAD', "Contact's manifest", contactPath],
  ['POST', "Contact's manifest", contactPath],
  ['PUT', "Contact's manifest", contactPath],
  ['GET', 'no url', () => '/section-manifest/contact'],
  ['GET', 'two urls', () => `${contactPath()}&url=${encodeURIComponent(`${cdn.origin}/other.json`)}`],
  ['GET', 'a cloud metadata address', () => sectionManifestPath('contact', 'http://169.254.169.254/latest/meta-data/')],
  ['GET', "Home's manifest (Home is granted no script)", () => sectionManifestPath('home', `${cdn.origin}/mf-manifest.json`)],
  ['GET', 'a section id that is a path', () => sectionManifestPath('../config.json', `${cdn.origin}/mf-manifest.json`)],
])('%s of %s is refused and nothing is fetched', async (method, _what, pathOf) => {
  const before = cdn.requests.length;
  const answer = await fetch(`${page}${pathOf()}`, { method });
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(cdn.requests.length).toBe(before);
});
