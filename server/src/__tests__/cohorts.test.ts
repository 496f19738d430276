import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Release, ServedState, ServerSignal } from '@portico/releases';
import { builtHost } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { startPortico, type RunningPortico } from '../portico-server';
import type { ReleaseFeed } from '../served-releases';
import { eventually } from '@portico/testing/eventually';

// A canary's cohorts as a visitor's browser meets them: the first page
// answer draws a bucket and sets it in a cookie holding nothing else; each
// later answer (the page, config.json) follows it. A release store stands in
// (the feed); the store's own canaries are tested in @portico/releases.

const REPO_ROOT = path.resolve(__dirname, '../../..');

function release(id: string, url: string): Release {
  return {
    id,
    section: 'contact',
    manifestUrl: url,
    integrity: `sha384-${'A'.repeat(64)}`,
    version: '1.0.0',
    buildId: id,
    createdAt: '2026-11-25T10:00:00.000Z',
    createdBy: 'ci',
    note: null,
  };
}
const ACTIVE = release('contact-7', 'https://contact.example/7/mf-manifest.json');
const CANDIDATE = release('contact-9', 'https://contact.example/9/mf-manifest.json');

let state: ServedState;
/** What the store's notification would do: the server reads the feed again. */
let notify: () => void = () => undefined;
let running: RunningPortico;
let folder: string;
/** What the server told the store it saw itself. */
const signals: ServerSignal[] = [];
/** What the stand-in contact endpoint answers. */
let contactStatus = 201;

beforeAll(async () => {
  builtHost();
  folder = mkdtempSync(path.join(tmpdir(), 'portico-cohorts-'));
  const configPath = path.join(folder, 'config.json');
  writeFileSync(configPath, JSON.stringify({ ...sampleConfig, allowedRemoteOrigins: ['https://contact.example'] }));
  const feed: ReleaseFeed = {
    read: () => Promise.resolve(state),
    watch: (onChange) => {
      notify = onChange;
      return Promise.resolve({ close: () => Promise.resolve() });
    },
    openPreview: (token) =>
      Promise.resolve(token === 'a-valid-link' ? { release: CANDIDATE, expiresAt: new Date(Date.now() + 3_600_000) } : { refused: 'invalid' }),
    healthToken: (releases) => `token-for-${releases.contact}`,
    signal: (signal) => {
      signals.push(signal);
      return Promise.resolve();
    },
  };
  state = { active: { contact: ACTIVE }, canaries: { contact: { release: CANDIDATE, percent: 50, id: 1, startedAt: '2026-11-25T10:00:00.000Z' } } };
  running = await startPortico({
    rootDir: REPO_ROOT,
    basePort: 0,
    configPath,
    ssr: false,
    releases: feed,
    log: silentLogger,
    // The contact endpoint, standing in: the server watches its answers, not its work.
    api: (app, _options, done) => {
      app.addContentTypeParser('*', (_request, payload, parsed) => void payload.resume().on('end', () => parsed(null, undefined)));
      app.post('/api/contact', (_request, reply) => reply.code(contactStatus).type('application/json').send('{}'));
      done();
    },
  });
});
afterAll(async () => {
  await running.close();
  rmSync(folder, { recursive: true, force: true });
});

const configWith = async (cookie?: string) => {
  const response = await fetch(`${running.url}/config.json`, { headers: cookie ? { cookie } : {} });
  const config = (await response.json()) as { remotes: { contact: string }; health?: { releases: Record<string, string>; token: string } };
  return { response, config };
};

test('the first page answer draws a cohort and sets it in a cookie holding only that number; config.json follows the cookie', async () => {
  const page = await fetch(running.url);
  const cookie = page.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^portico_cohort=(\d{1,2}); Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
  expect(page.headers.get('vary')).toContain('Cookie');
  const bucket = Number(/=(\d+)/.exec(cookie)![1]);
  const { response, config } = await configWith(`portico_cohort=${bucket}`);
  expect(response.headers.get('set-cookie')).toBeNull();
  const expected = bucket < 50 ? CANDIDATE : ACTIVE;
  expect(config.remotes.contact).toBe(expected.manifestUrl);
  // The visit report names what this visitor got, with the token signed for it.
  expect(config.health).toEqual({ releases: { contact: expected.id }, token: `token-for-${expected.id}` });
});

test('a visitor in bucket 3 gets the candidate on every visit, one in bucket 70 the active release; no cookie on config.json is the active release', async () => {
  for (let visit = 0; visit < 3; visit++) {
    expect((await configWith('portico_cohort=3')).config.remotes.contact).toBe(CANDIDATE.manifestUrl);
    expect((await configWith('portico_cohort=70')).config.remotes.contact).toBe(ACTIVE.manifestUrl);
  }
  const { response, config } = await configWith();
  expect(config.remotes.contact).toBe(ACTIVE.manifestUrl);
  expect(response.headers.get('set-cookie')).toBeNull();
});

test('a cookie that is not a bucket is replaced on the page answer; the page answer with a good one sets nothing', async () => {
  for (const bad of ['portico_cohort=100', 'portico_cohort=abc', 'portico_cohort=-1', 'portico_cohort=7%3B%20admin%3D1']) {
    const page = await fetch(running.url, { headers: { cookie: bad } });
    expect(page.headers.get('set-cookie')).toMatch(/^portico_cohort=\d{1,2};/);
  }
  expect((await fetch(running.url, { headers: { cookie: 'portico_cohort=42' } })).headers.get('set-cookie')).toBeNull();
});

test('with no canary running, no cookie is set and nothing varies by it', async () => {
  const canaries = state.canaries;
  state = { active: { contact: ACTIVE }, canaries: {} };
  try {
    notify();
    await eventually(() => Object.keys(running.releases().canaries).length === 0, { what: 'the canary no longer served', withinMs: 5_000 });
    const page = await fetch(running.url);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('vary') ?? '').not.toContain('Cookie');
  } finally {
    state = { active: { contact: ACTIVE }, canaries };
  }
});

test("a 5xx answer of /api/contact while Contact's canary runs counts against the release the visitor's cohort got; other answers count nothing", async () => {
  const post = (cookie?: string) =>
    fetch(`${running.url}/api/contact`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(cookie ? { cookie } : {}) }, body: '{}' });
  // The canary served again (the test before ended it for a while).
  notify();
  await eventually(() => running.releases().canaries.contact !== undefined, { what: 'the canary served again', withinMs: 5_000 });
  signals.length = 0;
  contactStatus = 201;
  expect((await post('portico_cohort=3')).status).toBe(201);
  contactStatus = 503;
  expect((await post('portico_cohort=3')).status).toBe(503);
  expect((await post('portico_cohort=70')).status).toBe(503);
  // No cookie: the active release, as config.json gives it.
  expect((await post()).status).toBe(503);
  // The answer is sent before the store is told: wait for the last one.
  await eventually(() => signals.length >= 3, { what: 'three signals', withinMs: 5_000 });
  expect(signals).toEqual([
    { section: 'contact', releaseId: CANDIDATE.id, kind: 'contact-5xx', detail: '/api/contact answered 503' },
    { section: 'contact', releaseId: ACTIVE.id, kind: 'contact-5xx', detail: '/api/contact answered 503' },
    { section: 'contact', releaseId: ACTIVE.id, kind: 'contact-5xx', detail: '/api/contact answered 503' },
  ]);
  contactStatus = 201;
});

test('a preview visit sets no cookie while a canary runs, whether its link is valid or not', async () => {
  // The canary served again, whatever the test before left.
  notify();
  await eventually(() => running.releases().canaries.contact !== undefined, { what: 'the canary served again', withinMs: 5_000 });
  expect(running.releases().canaries.contact?.release.id).toBe(CANDIDATE.id);
  for (const path of ['/?preview=a-valid-link', '/index.html?preview=a-valid-link', '/?preview=an-altered-link']) {
    const page = await fetch(`${running.url}${path}`);
    expect([path, page.status, page.headers.get('set-cookie')]).toEqual([path, 200, null]);
  }
  const previewed = (await (await fetch(`${running.url}/config.json?preview=a-valid-link`)).json()) as {
    remotes: { contact: string };
    preview?: { release: string };
  };
  expect(previewed).toMatchObject({ remotes: { contact: CANDIDATE.manifestUrl }, preview: { release: CANDIDATE.id } });
  // The same page without the link draws a cohort as before.
  expect((await fetch(running.url)).headers.get('set-cookie')).toMatch(/^portico_cohort=\d{1,2};/);
});
