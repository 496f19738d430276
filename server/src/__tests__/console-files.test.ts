import { mkdirSync, writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { consoleFiles, ReleaseStore, startControlApi, type ControlApi } from '@portico/releases';
import { staticFiles } from '../static-files';
import { startPortico, type RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';

// The operator console's files: on the control port, under a strict
// policy; never on the page's ports (the generated nginx site: deploy's
// nginx-config.test.ts).

const CONSOLE_JS = 'console.info("the operator console");\n'.repeat(40);
const CONSOLE_PAGE = '<!doctype html><title>Portico console</title><script defer src="/main.abcdef0123.js"></script>';

let site: { root: string; remove: () => void };
let database: TestDatabase;
let store: ReleaseStore;
let control: ControlApi;
let running: RunningPortico;

beforeAll(async () => {
  site = makeBuiltSite();
  const dist = path.join(site.root, 'console', 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), CONSOLE_PAGE);
  writeFileSync(path.join(dist, 'main.abcdef0123.js'), CONSOLE_JS);
  writeFileSync(path.join(dist, 'main.abcdef0123.js.br'), brotliCompressSync(CONSOLE_JS));
  database = embeddedTestDatabase();
  store = await ReleaseStore.open(await database.open());
  control = await startControlApi({
    store,
    port: 0,
    publishChecks: () => Promise.resolve({ ok: false, checks: [] }),
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
    console: consoleFiles(dist, staticFiles),
  });
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: silentLogger });
}, 60_000);

afterAll(async () => {
  await running?.close();
  await control?.close();
  await store?.db.close();
  database?.cleanUp();
  site?.remove();
});

describe('the control port', () => {
  it("serves the console's page at / and at its own routes, with a policy that runs only its own files and is never framed", async () => {
    for (const route of ['/', '/sections/contact', '/inbox?q=asha']) {
      const answer = await fetch(`${control.url}${route}`, { headers: { 'Sec-Fetch-Site': 'none' } });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(CONSOLE_PAGE);
      const csp = answer.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|https?:/);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves its scripts precompressed, and still answers the API (in JSON) under /api/', async () => {
    const script = await fetch(`${control.url}/main.abcdef0123.js`, { headers: { 'Accept-Encoding': 'br' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-encoding')).toBe('br');
    expect(await script.text()).toBe(CONSOLE_JS);
    expect((await fetch(`${control.url}/missing.abcdef0123.js`)).status).toBe(404);
    const api = await fetch(`${control.url}/api/nothing-here`, { headers: { Authorization: 'Bearer nobody' } });
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(api.status).toBe(401);
  });
});

describe("the page's ports", () => {
  it('answer nothing of the console on any of the four ports', async () => {
    for (const port of running.ports) {
      for (const route of ['/main.abcdef0123.js', '/api/session', '/api/events', '/console/dist/index.html', '/console/']) {
        const answer = await fetch(`http://127.0.0.1:${port}${route}`);
        const body = await answer.text();
        expect([port, route, body.includes('the operator console') || body.includes('Portico console')]).toEqual([port, route, false]);
        expect(answer.status === 200 && route.startsWith('/api/')).toBe(false);
      }
    }
  });
});
