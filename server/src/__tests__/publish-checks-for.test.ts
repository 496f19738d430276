import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { existingBuild } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { hostHeaders, serveDist, type DistServer } from '@portico/testing/serve-dist';
import { publishChecksFor } from '../control-plane';

// What the server hands the publish checks: the sections' allowed origins from
// the operator's config.json, read for each publish, and the origin of the
// page (PORTICO_PUBLIC_URL), as whose browser every file is fetched. The
// checks themselves are releases/src/checks' tests.

const PUBLIC_URL = 'https://www.portico.example/lending/';

let contact: DistServer;
let folder: string;
let configPath: string;

beforeAll(async () => {
  contact = await serveDist(existingBuild('remote-contact'));
  folder = mkdtempSync(path.join(tmpdir(), 'portico-publish-checks-'));
  configPath = path.join(folder, 'config.json');
});
afterAll(async () => {
  await contact.close();
  rmSync(folder, { recursive: true, force: true });
});

const writeConfig = (allowedRemoteOrigins: string[]) => writeFileSync(configPath, JSON.stringify({ ...sampleConfig, allowedRemoteOrigins }));

const checksFor = (publicUrl: string) => publishChecksFor({ configPath, basePort: 0, ports: () => [], renderCheck: () => undefined, publicUrl });
const browserCheck = async (publicUrl: string) =>
  (await checksFor(publicUrl)({ section: 'contact', manifestUrl: `${contact.origin}/mf-manifest.json` })).checks.find(({ name }) => name === 'browser');

test("every file is fetched as a browser on PORTICO_PUBLIC_URL's origin would fetch it", async () => {
  writeConfig([contact.origin]);
  // A host that admits only the site's own page, as a CDN set up for it does.
  contact.headersOf = (pathname) => ({ ...hostHeaders(pathname), 'Access-Control-Allow-Origin': 'https://www.portico.example' });
  expect(await browserCheck(PUBLIC_URL)).toMatchObject({ ok: true });
  expect(contact.origins.filter((origin) => origin !== undefined)).toEqual(expect.arrayContaining(['https://www.portico.example']));

  expect(await browserCheck('http://localhost:8080')).toMatchObject({
    ok: false,
    detail: expect.stringContaining('send `Access-Control-Allow-Origin: http://localhost:8080` (or `*`) with each'),
  });
});

test("an origin added to config.json's allowedRemoteOrigins is taken by the next publish, with no restart", async () => {
  writeConfig(['https://cdn.portico.example']);
  const checks = checksFor(PUBLIC_URL);
  const manifestUrl = `${contact.origin}/mf-manifest.json`;
  const requested = contact.requests.length;
  const refused = await checks({ section: 'contact', manifestUrl });
  expect(refused).toMatchObject({ refusedOrigin: contact.origin, allowedOrigins: ['http://localhost:8083', 'https://cdn.portico.example'] });
  expect(contact.requests.length).toBe(requested);

  writeConfig(['https://cdn.portico.example', contact.origin]);
  const taken = await checks({ section: 'contact', manifestUrl });
  expect(taken.refusedOrigin).toBeUndefined();
  expect(taken.checks.find(({ name }) => name === 'reachable')).toMatchObject({ ok: true });
});

test("an added section's releases come from its own origins only: config.json's allowedRemoteOrigins lets none of its publishes through", async () => {
  // The build's origin allowed for the built-in sections, not in the added section's entry.
  writeConfig([contact.origin]);
  const checks = checksFor(PUBLIC_URL);
  const manifestUrl = `${contact.origin}/mf-manifest.json`;
  const requested = contact.requests.length;
  const refused = await checks({ section: 'loan-calc', manifestUrl, origins: ['https://cdn.loan-calc.example'] });
  expect(refused).toMatchObject({ refusedOrigin: contact.origin, allowedOrigins: ['https://cdn.loan-calc.example'] });
  expect(contact.requests.length).toBe(requested);

  const taken = await checks({ section: 'loan-calc', manifestUrl, origins: [contact.origin] });
  expect(taken.refusedOrigin).toBeUndefined();
  expect(taken.checks.find(({ name }) => name === 'reachable')).toMatchObject({ ok: true });
});
