import { createHash } from 'node:crypto';
import { captureLog } from '@portico/platform/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contactSettings, startContactService, type ContactService } from '@portico/messages';
import { PUBLISH_CHECKS } from '../../checks';
import { HealthStore } from '../../health/health-store';
import { bucketOf } from '../../health/vital-histogram';
import { verifyPreview } from '../../preview-link';
import type { HealthSource, PublishCheckOutcome, PublishChecks, ReleaseHealth } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { pathOf, CONTROL_API } from '@portico/control-contract';
import { startControlApi, type ControlApi } from '../control-api';
import { silentLogger } from '@portico/platform/logging';

const ENV_TOKEN = 'the-integrator-token-from-the-environment';
/** What the server's reading of its config.json found (server/src/config-log.ts makes it from the file). */
const CONFIG_REPORT = {
  problems: [{ field: 'email', message: 'is not a valid email' }],
  warnings: [{ field: 'legal.ID', message: 'is missing: the Indonesia page (?type=2) shows no lender, licence or complaint path' }],
};
const CDN = 'https://cdn.example';

/**
 * The publish checks, faked: the real ones (./checks) fetch and render a
 * build. Here `served` says what each manifest URL holds: a build that
 * passes (its pin computed from the text), `broken`, which fails two
 * checks, or `missing`, which fails the first of the real checks and runs
 * none of the others. Another origin than the CDN is refused before
 * anything is fetched.
 */
const served = new Map<string, string>();
const checked: string[] = [];
const fakeChecks: PublishChecks = ({ section, manifestUrl }) => {
  const origin = new URL(manifestUrl).origin;
  if (origin !== CDN) return Promise.resolve({ ok: false, checks: [], refusedOrigin: origin, allowedOrigins: [CDN] });
  checked.push(manifestUrl);
  const text = served.get(manifestUrl) ?? `${section} build`;
  if (text === 'missing') {
    const [first, ...others] = PUBLISH_CHECKS;
    return Promise.resolve({
      ok: false,
      checks: [
        { name: first, ok: false, detail: `${manifestUrl} answered HTTP 404` },
        ...others.map((name) => ({ name, ok: false, detail: 'not run: the manifest was not fetched' })),
      ],
    });
  }
  const outcome: PublishCheckOutcome =
    text === 'broken'
      ? {
          ok: false,
          checks: [
            { name: 'manifest', ok: true, detail: `a federation manifest of ${section} exposing ./section` },
            { name: 'shared versions', ok: false, detail: "react ^18.2.0 does not accept the host's 19.2.0" },
            { name: 'server render', ok: false, detail: 'the node build threw: window is not defined' },
          ],
        }
      : {
          ok: true,
          checks: [{ name: 'manifest', ok: true, detail: `a federation manifest of ${section} exposing ./section` }],
          manifest: {
            integrity: `sha384-${createHash('sha384').update(text).digest('base64')}`,
            version: '1.0.0',
            buildId: createHash('sha1').update(text).digest('hex').slice(0, 7),
          },
        };
  return Promise.resolve(outcome);
};

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & unknown[];
}

let folder: string;
let service: ContactService;
let store: ReleaseStore;
let health: HealthStore;
let api: ControlApi;
const tokens: Record<string, string> = {};
// The API's lines as main.ts writes them (JSON, each with its level), to check what each says and how loud.
const log = captureLog();
const said = (words: string) => log.lines.filter((line) => String(line.msg).includes(words));

/** One request to `server` (the shared API by default), as a CI job sends it. */
async function call(
  method: string,
  route: string,
  options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string>; server?: ControlApi } = {},
): Promise<Answer> {
  const token = options.token === undefined ? ENV_TOKEN : options.token;
  const response = await fetch(`${(options.server ?? api).url}${route}`, {
    method,
    headers: { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), 'Content-Type': 'application/json', ...options.headers },
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  // Every answer, refusals included, is JSON that no cache keeps.
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
}

const publish = (section: string, name: string, token?: string) =>
  call('POST', '/api/releases', { token, body: { section, manifestUrl: `${CDN}/${section}/${name}/mf-manifest.json` } });

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-control-'));
  // The server's wiring: the release store on the contact service's database object.
  service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder }),
    requestOrigin: () => ({ origin: undefined, address: '127.0.0.1' }),
    log: silentLogger,
  });
  store = await ReleaseStore.open(service.database, { environmentToken: ENV_TOKEN });
  health = await HealthStore.open(service.database);
  api = await startControlApi({
    store,
    health: health.health,
    port: 0,
    publishChecks: fakeChecks,
    messages: service.store,
    publicUrl: 'https://www.lender.example',
    // Fastify's logger too: a request's lines carry its reqId.
    log: log.logger,
    configuredRemotes: () => Promise.resolve({ about: 'https://static.lender.example/about/mf-manifest.json' }),
    configReport: () => Promise.resolve(CONFIG_REPORT),
  });
  for (const [name, section] of [
    ['ci-home', 'home'],
    ['ci-contact', 'contact'],
  ] as const) {
    tokens[name] = (await store.tokens.create({ name, section, actor: 'test' })).token;
  }
  tokens.integrator = (await store.tokens.create({ name: 'integrator', actor: 'test' })).token;
}, 60_000);

afterAll(async () => {
  await api?.close();
  await service?.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

describe('publishing', () => {
  it('answers 201 with the release, its pin computed from the bytes; the same URL and bytes again 200 with the same release', async () => {
    const first = await publish('home', 'v1', tokens['ci-home']);
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(['buildId', 'createdAt', 'createdBy', 'id', 'integrity', 'manifestUrl', 'note', 'section', 'version']);
    expect(first.body).toMatchObject({
      section: 'home',
      manifestUrl: `${CDN}/home/v1/mf-manifest.json`,
      integrity: expect.stringMatching(/^sha384-/),
      version: '1.0.0',
      createdBy: 'ci-home',
      note: null,
    });
    const again = await publish('home', 'v1', tokens['ci-home']);
    expect(again.status).toBe(200);
    // The same release, said to be one published before (issue 49: it read as a new one).
    expect(again.body).toEqual({ ...first.body, republished: true });

    // The same URL whose bytes changed on the host is a new release.
    served.set(`${CDN}/home/v1/mf-manifest.json`, 'home build, rebuilt');
    const changed = await publish('home', 'v1', tokens['ci-home']);
    expect(changed.status).toBe(201);
    expect(changed.body.id).not.toBe(first.body.id);
    expect(changed.body.integrity).not.toBe(first.body.integrity);
  });

  it('answers 422 with every check when one fails, stores nothing releasable and audits the attempt', async () => {
    served.set(`${CDN}/contact/broken/mf-manifest.json`, 'broken');
    const refused = await call('POST', '/api/releases', {
      token: tokens['ci-contact'],
      body: { section: 'contact', manifestUrl: `${CDN}/contact/broken/mf-manifest.json`, note: 'new form' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('2 checks failed: shared versions, server render');
    expect(refused.body.checks).toEqual([
      { name: 'manifest', ok: true, detail: expect.any(String) },
      { name: 'shared versions', ok: false, detail: "react ^18.2.0 does not accept the host's 19.2.0" },
      { name: 'server render', ok: false, detail: 'the node build threw: window is not defined' },
    ]);
    const listed = await call('GET', '/api/releases?section=contact');
    expect((listed.body as { manifestUrl: string }[]).map((release) => release.manifestUrl)).not.toContain(`${CDN}/contact/broken/mf-manifest.json`);
    const [entry] = (await call('GET', '/api/audit?section=contact')).body as { action: string; actor: string; detail: string }[];
    expect(entry).toMatchObject({ action: 'publish-refused', actor: 'ci-contact' });
    expect(entry!.detail).toContain("shared versions: react ^18.2.0 does not accept the host's 19.2.0");
    expect(entry!.detail).toContain('server render: the node build threw');
  });

  it('counts the checks that did not run apart from the one that failed', async () => {
    served.set(`${CDN}/contact/missing/mf-manifest.json`, 'missing');
    const refused = await call('POST', '/api/releases', {
      token: tokens['ci-contact'],
      body: { section: 'contact', manifestUrl: `${CDN}/contact/missing/mf-manifest.json` },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe(`1 check failed, ${PUBLISH_CHECKS.length - 1} not run: reachable`);
  });

  it("answers 422 naming an origin that is not one of the section's release origins, the ones that are, and how to add one; having fetched nothing", async () => {
    const before = checked.length;
    const refused = await call('POST', '/api/releases', { body: { section: 'contact', manifestUrl: 'https://attacker.example/mf-manifest.json' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ origin: 'https://attacker.example', allowedOrigins: [CDN] });
    expect(refused.body.error).toBe(
      "https://attacker.example is not one of contact's release origins, so nothing was fetched from it. " +
        `contact's release origins: ${CDN} (the origin of config.json's remotes.contact, and allowedRemoteOrigins). ` +
        'To publish from https://attacker.example, the operator adds it to allowedRemoteOrigins in config.json, which the server reads on every publish: no restart ' +
        '(an origin there may also serve any section to a visit that asks for it with ?remote.<section>=)',
    );
    expect(checked.length).toBe(before);
  });

  it('takes one URL written three ways as one: the same bytes are one release', async () => {
    const spellings = [
      'https://cdn.example/home/spelled/mf-manifest.json',
      'HTTPS://CDN.EXAMPLE/home/spelled/mf-manifest.json',
      'https://cdn.example:00443/home/./spelled/mf-manifest.json#frag',
    ];
    const answers = [];
    for (const manifestUrl of spellings) answers.push(await call('POST', '/api/releases', { body: { section: 'home', manifestUrl } }));
    expect(answers.map(({ status }) => status)).toEqual([201, 200, 200]);
    expect(new Set(answers.map(({ body }) => body.id)).size).toBe(1);
    expect(answers[2]!.body.manifestUrl).toBe(spellings[0]);
    // The checks were given the one spelling too: it is what they fetch.
    expect(checked.slice(-3)).toEqual([spellings[0], spellings[0], spellings[0]]);
  });

  it('answers 429 with Retry-After past a number of refused publishes per token, checks nothing then, and audits those in one entry', async () => {
    const limited = await startControlApi({
      store,
      port: 0,
      publishChecks: fakeChecks,
      publicUrl: 'http://localhost:8080',
      log: log.logger,
      refusedPublishes: { max: 3, windowMs: 60_000 },
    });
    const flood = (await store.tokens.create({ name: 'ci-flood', section: 'about', actor: 'test' })).token;
    served.set(`${CDN}/about/flood/mf-manifest.json`, 'broken');
    const attempt = (name: string, token = flood) =>
      call('POST', '/api/releases', { server: limited, token, body: { section: 'about', manifestUrl: `${CDN}/about/${name}/mf-manifest.json` } });
    const refusals = async () =>
      ((await call('GET', '/api/audit?section=about&limit=1000')).body as { actor: string; action: string; detail: string }[]).filter(
        (entry) => entry.actor === 'ci-flood',
      );
    try {
      for (let index = 0; index < 3; index++) expect((await attempt('flood')).status).toBe(422);
      const checkedBefore = checked.length;
      const held = [];
      for (let index = 0; index < 5; index++) held.push(await attempt('flood'));
      // A good build from the same token waits too: the limit is the token's.
      held.push(await attempt('fixed'));
      expect(held.map(({ status }) => status)).toEqual([429, 429, 429, 429, 429, 429]);
      for (const answer of held) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      for (const answer of held) expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(held[0]!.body.error).toMatch(/^the token ci-flood had 3 publishes refused within 1 minutes, so this one was not checked: try again in \d+ s/);
      expect(checked.length).toBe(checkedBefore);

      // Another token is not held back: its publish is checked (and refused by its checks).
      expect((await attempt('flood', tokens.integrator)).status).toBe(422);
      expect(checked.length).toBe(checkedBefore + 1);
      expect((await refusals()).map(({ action }) => action)).toEqual(['publish-refused', 'publish-refused', 'publish-refused']);
      // One warning per run held back, naming the token (its name: the secret is never logged).
      expect(said('refused unchecked').map(({ level, token, refused }) => ({ level, token, refused }))).toEqual([{ level: 40, token: 'ci-flood', refused: 3 }]);
      expect(log.text()).not.toContain(flood);
    } finally {
      await limited.close();
    }
    // Once the run ends (here: the API closing), one entry says how many were held back.
    const [summary, ...rest] = await refusals();
    expect(rest).toHaveLength(3);
    expect(summary).toMatchObject({
      action: 'publish-refused',
      detail: expect.stringMatching(
        /^6 publishes of about refused with 429 from \S+ to \S+, unchecked: the token was over its limit of 3 refused publishes in 1 minutes$/,
      ),
      facts: { kind: 'publish-held', count: 6, sections: ['about'], limit: { max: 3, minutes: 1 } },
    });
  });

  it.each([
    ['not JSON', '{"section": "home",', 'the body is not valid JSON'],
    [
      'a relative manifest URL',
      JSON.stringify({ section: 'home', manifestUrl: '/home/mf-manifest.json' }),
      'manifestUrl: manifestUrl must be an absolute http(s) URL',
    ],
    ['a file: URL', JSON.stringify({ section: 'home', manifestUrl: 'file:///etc/passwd' }), 'manifestUrl: manifestUrl must be an absolute http(s) URL'],
    ['no section', JSON.stringify({ manifestUrl: `${CDN}/home/x/mf-manifest.json` }), 'section'],
    ['an unknown key', JSON.stringify({ section: 'home', manifestUrl: `${CDN}/home/x/mf-manifest.json`, releases: 1 }), 'releases'],
  ])('answers 400 to %s', async (_what, raw, error) => {
    const answer = await call('POST', '/api/releases', { raw });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(error);
  });

  it('answers 503 when the checks themselves cannot run, storing nothing', async () => {
    const failing = await startControlApi({
      store,
      port: 0,
      publishChecks: () => Promise.reject(new Error('no render worker could start')),
      publicUrl: 'http://localhost:8080',
      log: log.logger,
    });
    try {
      const answer = await call('POST', '/api/releases', { server: failing, body: { section: 'home', manifestUrl: `${CDN}/home/no-worker/mf-manifest.json` } });
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe('the publish checks could not run: no render worker could start');
      expect((await store.releases.list({ sections: ['home'] })).some((release) => release.manifestUrl.includes('no-worker'))).toBe(false);
      // The checker failing is an error, on the request's line (its reqId), with the cause.
      const [line] = said('publish checks could not run');
      expect(line).toMatchObject({ level: 50, section: 'home', err: { message: 'no render worker could start' } });
      expect(line!.reqId).toEqual(expect.any(String));
    } finally {
      await failing.close();
    }
  });

  it('answers 413 to a body over 16 KB, and 404 to an unknown section', async () => {
    const large = await call('POST', '/api/releases', {
      body: { section: 'home', manifestUrl: `${CDN}/home/x/mf-manifest.json`, note: 'x'.repeat(17 * 1024) },
    });
    expect(large.status).toBe(413);
    const unknown = await call('POST', '/api/releases', { body: { section: 'careers', manifestUrl: `${CDN}/careers/x/mf-manifest.json` } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('careers');
  });
});

describe('activating and rolling back', () => {
  it('answers { section, active, previous } and lists the releases newest first with their state', async () => {
    const ids = [];
    for (const name of ['a1', 'a2', 'a3']) ids.push((await publish('about', name)).body.id as string);
    const [one, two, three] = ids as [string, string, string];
    for (const id of ids) expect((await call('POST', '/api/sections/about/active', { body: { release: id } })).status).toBe(200);
    // A query name given twice counts once, as first given.
    const listed = await call('GET', '/api/releases?section=about&section=contact');
    expect((listed.body as { id: string; state: string }[]).map((release) => [release.id, release.state])).toEqual([
      [three, 'active'],
      [two, 'previous'],
      [one, 'available'],
    ]);

    const back = await call('POST', '/api/sections/about/rollback', { token: tokens.integrator, body: { note: 'the new page breaks on iOS' } });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ section: 'about', active: expect.objectContaining({ id: two }), previous: expect.objectContaining({ id: one }) });
    expect(Object.keys(back.body.active as object).sort()).toEqual([
      'buildId',
      'createdAt',
      'createdBy',
      'id',
      'integrity',
      'manifestUrl',
      'note',
      'section',
      'version',
    ]);
    const twice = await call('POST', '/api/sections/about/rollback', { token: tokens.integrator });
    expect(twice.body).toMatchObject({ active: { id: one }, previous: null });
    // The first release rolled back: config.json's URL again, the answer naming the release it replaced.
    const toConfig = await call('POST', '/api/sections/about/rollback', { token: tokens.integrator, body: {} });
    expect(toConfig.status).toBe(200);
    expect(toConfig.body).toEqual({ section: 'about', active: null, previous: expect.objectContaining({ id: one }) });
    const [entry] = (await call('GET', '/api/audit?section=about&limit=1')).body as Record<string, unknown>[];
    expect(entry).toMatchObject({ actor: 'integrator', action: 'rollback', section: 'about', release: null, from: one });
    expect((await call('GET', '/api/sections')).body.about).toMatchObject({
      active: null,
      previous: null,
      by: 'integrator',
      configured: 'https://static.lender.example/about/mf-manifest.json',
    });
    const none = await call('POST', '/api/sections/about/rollback', { token: tokens.integrator, body: {} });
    expect(none.status).toBe(409);
    expect(none.body.error).toContain('serves the URL in config.json already');
    expect((await call('POST', '/api/sections/about/active', { body: { release: one } })).status).toBe(200);
    // Forward again to a named release, which goes on top.
    expect((await call('POST', '/api/sections/about/rollback', { body: { release: three } })).body).toMatchObject({
      active: { id: three },
      previous: { id: one },
    });

    const [latest] = (await call('GET', '/api/audit?section=about&limit=1')).body as Record<string, unknown>[];
    expect(latest).toEqual({
      at: expect.any(String),
      actor: 'environment',
      action: 'rollback',
      section: 'about',
      release: three,
      from: one,
      detail: '',
      // What the detail is made of, for a console in another language (issue 49).
      facts: { kind: 'rollback' },
      // The request that rolled it back.
      requestId: expect.stringMatching(/^[\w-]{12,}$/),
      cursor: expect.any(String),
    });
  });

  it('answers 404 for an unknown section or release, 409 for a release of another section, 400 for a bad body', async () => {
    const home = (await publish('home', 'h404')).body.id as string;
    expect((await call('POST', '/api/sections/careers/active', { body: { release: home } })).status).toBe(404);
    expect((await call('POST', '/api/sections/home/active', { body: { release: 'home-987654' } })).status).toBe(404);
    // A path parameter longer than any id or name is no such thing, not the router's refusal.
    expect((await call('POST', `/api/releases/home-${'9'.repeat(2000)}/preview`)).status).toBe(404);
    const other = await call('POST', '/api/sections/contact/active', { body: { release: home } });
    expect(other.status).toBe(409);
    expect(other.body.error).toBe(`${home} is a release of home, not of contact`);
    expect((await call('POST', '/api/sections/contact/rollback', { body: { release: home } })).status).toBe(409);
    expect((await call('POST', '/api/sections/home/active', { body: {} })).status).toBe(400);
    expect((await call('POST', '/api/sections/home/active', { raw: 'release=home-1' })).status).toBe(400);
    expect((await call('GET', '/api/nowhere')).status).toBe(404);
    const wrongMethod = await call('DELETE', '/api/sections/home/active');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('serves every route of its contract, and refuses a body field the contract does not name', async () => {
    for (const route of Object.values(CONTROL_API).flatMap((area) => Object.values(area))) {
      const answer = await call(
        route.method,
        pathOf(route, { section: 'home', id: 'home-0', name: 'nobody' }),
        'body' in route ? { body: { unheardOf: 1 } } : {},
      );
      expect([route.method, route.path, String(answer.body.error ?? '')]).not.toEqual([route.method, route.path, expect.stringMatching(/^no such endpoint/)]);
      if ('body' in route) expect([route.method, route.path, answer.status]).toEqual([route.method, route.path, 400]);
    }
  });

  it('shows each section the token may see, with its active release and since when, and config.json where it has none', async () => {
    const all = await call('GET', '/api/sections');
    expect(Object.keys(all.body)).toEqual(['home', 'about', 'contact']);
    expect(all.body).toMatchObject({
      about: {
        active: { section: 'about' },
        previous: { section: 'about' },
        since: expect.any(String),
        by: 'environment',
        health: {},
        configured: 'https://static.lender.example/about/mf-manifest.json',
      },
      contact: { active: null, previous: null, since: null, by: null, health: {} },
    });
    const own = await call('GET', '/api/sections', { token: tokens['ci-contact'] });
    expect(Object.keys(own.body)).toEqual(['contact']);
  });

  it("shows the active release's health from the visit reports, over the last 24 hours or the hours asked for", async () => {
    const about = ((await call('GET', '/api/sections')).body.about as { active: { id: string } }).active.id;
    const hour = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
    const count = (at: Date, key: string, n: number) => ({ hour: at, section: 'about' as const, releaseId: about, key, count: n });
    await health.record([
      count(hour(0), 'visits', 40),
      count(hour(0), 'arrival:ssr', 38),
      count(hour(0), 'arrival:failed', 2),
      count(hour(0), 'failed:timeout', 2),
      count(hour(0), `lcp:${bucketOf('lcp', 1800)}`, 40),
      count(hour(0), `inp:${bucketOf('inp', 90)}`, 30),
      count(hour(0), `cls:${bucketOf('cls', 0)}`, 40),
      // Older than a day: outside the default window.
      count(hour(30), 'visits', 60),
      count(hour(30), 'arrival:failed', 60),
      // Another release of the section, not active: not shown.
      { ...count(hour(0), 'visits', 7), releaseId: 'about-999' },
    ]);
    const asking = Date.now();
    const shown = (await call('GET', '/api/sections')).body.about as { health: Record<string, Record<string, unknown>>; healthSince: string };
    const answered = Date.now();
    expect(Object.keys(shown.health)).toEqual([about]);
    expect(shown.health[about]).toEqual({
      visits: 40,
      failures: 2,
      failureRate: 0.05,
      failuresByClass: { timeout: 2 },
      lcpP75: expect.any(Number),
      inpP75: expect.any(Number),
      clsP75: 0,
    });
    expect(Math.abs((shown.health[about]!.lcpP75 as number) - 1800)).toBeLessThanOrEqual(90);
    expect(Math.abs((shown.health[about]!.inpP75 as number) - 90)).toBeLessThanOrEqual(5);
    // The window starts 24 h before the request was answered: bracketed by the clock readings around it.
    expect(Date.parse(shown.healthSince)).toBeGreaterThanOrEqual(asking - 24 * 3_600_000);
    expect(Date.parse(shown.healthSince)).toBeLessThanOrEqual(answered - 24 * 3_600_000);
    expect(((await call('GET', '/api/sections?hours=48')).body.about as typeof shown).health[about]).toMatchObject({ visits: 100, failures: 62 });
    // A section without an active release has no release to report on.
    expect(((await call('GET', '/api/sections')).body.contact as typeof shown).health).toEqual({});
    expect((await call('GET', '/api/sections?hours=0')).status).toBe(400);
    expect((await call('GET', '/api/sections?hours=721')).body).toMatchObject({ field: 'hours' });
  });
});

describe('tokens and scopes', () => {
  it("keeps a section token to its own section: 403 on another section, on another section's release, and on tokens", async () => {
    const about = ((await call('GET', '/api/releases?section=about')).body as { id: string }[])[0]!.id;
    const contact = (await publish('contact', 'c1', tokens['ci-contact'])).body.id as string;
    const token = tokens['ci-contact'];
    for (const [method, route, body] of [
      ['POST', '/api/releases', { section: 'home', manifestUrl: `${CDN}/home/by-contact/mf-manifest.json` }],
      ['POST', '/api/sections/home/active', { release: about }],
      ['POST', '/api/sections/about/rollback', {}],
      // Its own section, another section's release: 403, where an integrator gets 409.
      ['POST', '/api/sections/contact/active', { release: about }],
      ['POST', `/api/releases/${about}/preview`, {}],
      ['GET', '/api/releases?section=home', undefined],
      ['GET', '/api/audit?section=home', undefined],
      ['POST', '/api/tokens', { name: 'sneaky' }],
      ['DELETE', '/api/tokens/integrator', undefined],
      ['GET', '/api/messages', undefined],
    ] as const) {
      const answer = await call(method, route, { token, body });
      expect([route, answer.status]).toEqual([route, 403]);
    }
    // Its own: fine, and it sees only its own.
    expect((await call('POST', '/api/sections/contact/active', { token, body: { release: contact } })).status).toBe(200);
    const listed = (await call('GET', '/api/releases', { token })).body as { section: string }[];
    expect(new Set(listed.map((release) => release.section))).toEqual(new Set(['contact']));
    const audit = (await call('GET', '/api/audit', { token })).body as { section: string }[];
    expect(audit.length).toBeGreaterThan(0);
    expect(new Set(audit.map((entry) => entry.section))).toEqual(new Set(['contact']));
    // Nothing the refused requests asked for happened.
    expect(((await call('GET', '/api/sections')).body.home as { active: { id: string } | null }).active?.id).not.toBe(about);
    expect((await store.releases.list({ sections: ['home'] })).some((release) => release.manifestUrl.includes('by-contact'))).toBe(false);
  });

  it('answers its refusals through the root plugin every Portico server registers: its data policy, request id and security headers on each', async () => {
    for (const refused of [
      await call('GET', '/api/releases', { token: null }),
      await call('GET', '/api/no-such-thing'),
      await call('POST', '/api/releases', { raw: '{"section":' }),
      await call('DELETE', '/api/tokens/no-such-token'),
    ]) {
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refused.headers.get('x-request-id')).toEqual(expect.any(String));
    }
  });

  it('answers 401 with no token, a wrong one or a revoked one, and changes nothing', async () => {
    expect((await call('GET', '/api/releases', { token: null })).status).toBe(401);
    expect((await call('GET', '/api/releases', { token: 'not-a-token' })).status).toBe(401);
    const created = await call('POST', '/api/tokens', { token: tokens.integrator, body: { name: 'ci-about', section: 'about' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'ci-about', section: 'about', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const token = created.body.token as string;
    expect((await call('GET', '/api/releases?section=about', { token })).status).toBe(200);
    expect((await call('DELETE', '/api/tokens/ci-about', { token: tokens.integrator })).body).toEqual({ name: 'ci-about', revoked: true });
    const activeBefore = (await store.releases.active()).about?.id;
    const revoked = await call('POST', '/api/sections/about/rollback', { token, body: {} });
    expect(revoked.status).toBe(401);
    expect((await store.releases.active()).about?.id).toBe(activeBefore);
    expect(revoked.headers.get('www-authenticate')).toBe('Bearer');
    expect((await call('DELETE', '/api/tokens/ci-about', { token: tokens.integrator })).status).toBe(404);
    const log = (await call('GET', '/api/audit?limit=5')).body as { action: string; actor: string; detail: string }[];
    expect(log.slice(0, 2).map((entry) => [entry.action, entry.actor, entry.detail])).toEqual([
      ['token', 'integrator', 'revoked ci-about'],
      ['token', 'integrator', 'created ci-about (section:about)'],
    ]);
  });

  it('lets a token grant only what it holds: an integrator cannot mint a messages reader', async () => {
    const refused = await call('POST', '/api/tokens', { token: tokens.integrator, body: { name: 'reader', scopes: ['messages'] } });
    expect(refused.status).toBe(403);
    const granted = await call('POST', '/api/tokens', { body: { name: 'lender', scopes: ['messages'] } });
    expect(granted.status).toBe(201);
    expect((await call('DELETE', '/api/tokens/lender', { token: tokens.integrator })).status).toBe(403);
    expect((await call('POST', '/api/tokens', { body: { name: 'lender' } })).status).toBe(409);
    expect((await call('POST', '/api/tokens', { body: { name: 'bad name!' } })).status).toBe(400);
  });

  it("refuses the server's own actor names as token names, in any case, and the local: prefix (400): the audit log cannot be impersonated", async () => {
    for (const name of [
      'owner',
      'Owner',
      'environment',
      'ENVIRONMENT',
      'canary-judge',
      'Canary-Judge',
      'canary_judge',
      'CANARY.JUDGE',
      'server',
      'background-check',
      'Background_Check',
      'local:alice',
      'LOCAL:root',
    ]) {
      const refused = await call('POST', '/api/tokens', { body: { name } });
      expect([name, refused.status, refused.body.field]).toEqual([name, 400, 'name']);
    }
    const created = (await call('GET', '/api/audit?limit=50')).body as { action: string; detail: string }[];
    expect(created.filter((entry) => entry.action === 'token' && /judge|owner|environment|server|check|local/i.test(entry.detail))).toEqual([]);
    // A name that only contains one is a name like any other.
    expect((await call('POST', '/api/tokens', { body: { name: 'judge-owner-ci' } })).status).toBe(201);
  });

  it('keeps { name, section? }; scopes that disagree with the section answer 400, and a token is filed under the section it acts on', async () => {
    for (const scopes of [['section:contact'], ['releases'], ['section:home', 'section:contact'], ['messages']]) {
      const refused = await call('POST', '/api/tokens', { body: { name: 'ci-home-2', section: 'home', scopes } });
      expect([scopes, refused.status, refused.body.field]).toEqual([scopes, 400, 'scopes']);
    }
    expect(await store.tokens.find('ci-home-2')).toBeUndefined();
    // Agreeing: the section's scope, with messages beside it.
    const both = await call('POST', '/api/tokens', { body: { name: 'ci-home-2', section: 'home', scopes: ['section:home', 'messages'] } });
    expect(both.body).toMatchObject({ name: 'ci-home-2', section: 'home', scopes: ['section:home', 'messages'] });
    // Scopes alone: the section they act on is the token's.
    const byScope = await call('POST', '/api/tokens', { body: { name: 'ci-about-2', scopes: ['section:about'] } });
    expect(byScope.body).toMatchObject({ name: 'ci-about-2', section: 'about', scopes: ['section:about'] });
    const [entry] = (await call('GET', '/api/audit?section=about&limit=1')).body as { action: string; detail: string }[];
    expect(entry).toMatchObject({ action: 'token', detail: 'created ci-about-2 (section:about)' });
  });

  it('refuses a browser before looking at its token', async () => {
    const answer = await call('GET', '/api/releases', { headers: { Origin: 'https://evil.example' } });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toContain('browsers');
  });

  it('answers 429 to bad tokens after 10 a minute from one address, and logs them; a valid token from that address is never refused', async () => {
    const guarded = await startControlApi({ store, port: 0, publishChecks: fakeChecks, publicUrl: 'http://localhost:8080', log: log.logger });
    try {
      for (let attempt = 0; attempt < 10; attempt++)
        expect((await call('GET', '/api/releases', { server: guarded, token: `guess-${attempt}` })).status).toBe(401);
      const limited = await call('GET', '/api/releases', { server: guarded, token: 'guess-10' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // A warning with the address it came from (an operator's: docs/privacy.md), never the guessed token.
      expect(said('unknown or revoked token')[0]).toMatchObject({ level: 40, address: '127.0.0.1', method: 'GET', path: '/api/releases' });
      expect(log.text()).not.toContain('guess-3');
      // The owner (any local process shares loopback with it) is not locked out, however many guesses come in between.
      for (let round = 0; round < 3; round++) {
        expect((await call('GET', '/api/releases', { server: guarded })).status).toBe(200);
        expect((await call('GET', '/api/releases', { server: guarded, token: tokens['ci-home'] })).status).toBe(200);
        expect((await call('GET', '/api/releases', { server: guarded, token: `guess-again-${round}` })).status).toBe(429);
      }
      // A request with no token guesses nothing: 401, never counted.
      expect((await call('GET', '/api/releases', { server: guarded, token: null })).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});

describe('preview links', () => {
  it('answers 201 with a link on the public address that the shared secret verifies, and audits it', async () => {
    const release = (await publish('contact', 'preview-me', tokens['ci-contact'])).body.id as string;
    const before = Date.now();
    const answer = await call('POST', `/api/releases/${release}/preview`, { token: tokens['ci-contact'], body: { expiresIn: 3600 } });
    const after = Date.now();
    expect(answer.status).toBe(201);
    const url = new URL(answer.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.lender.example/');
    const grant = verifyPreview(await store.previewSecret(), url.searchParams.get('preview')!);
    expect(grant).toEqual({ release, expiresAt: new Date(answer.body.expiresAt as string) });
    // An hour from when the server made it (between before and after), to the second below.
    expect(Date.parse(answer.body.expiresAt as string)).toBeGreaterThan(before + 3600_000 - 1000);
    expect(Date.parse(answer.body.expiresAt as string)).toBeLessThanOrEqual(after + 3600_000);

    const byDefault = await call('POST', `/api/releases/${release}/preview`, {});
    expect(Date.parse(byDefault.body.expiresAt as string) - before).toBeGreaterThan(24 * 3600_000 - 10_000);
    const tooShort = await call('POST', `/api/releases/${release}/preview`, { body: { expiresIn: 5 } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body).toEqual({ error: 'expiresIn: a whole number of seconds from 60 (1 minute) to 2592000 (30 days)', field: 'expiresIn' });
    expect((await call('POST', '/api/releases/contact-999999/preview', {})).status).toBe(404);
    const [entry] = (await call('GET', '/api/audit?section=contact&limit=1')).body as { action: string; release: string }[];
    expect(entry).toMatchObject({ action: 'preview', release });
  });
});

describe('GET /api/config', () => {
  it("answers the served config.json's problems and warnings to any valid token, whatever its scope, and to no other", async () => {
    const reader = (await call('POST', '/api/tokens', { body: { name: 'config-reader', scopes: ['messages'] } })).body.token as string;
    for (const token of [ENV_TOKEN, tokens['ci-home'], reader]) {
      const answer = await call('GET', '/api/config', { token });
      expect([answer.status, answer.body]).toEqual([200, CONFIG_REPORT]);
    }
    expect((await call('GET', '/api/config', { token: null })).status).toBe(401);
    expect((await call('GET', '/api/config', { token: 'not-a-token' })).status).toBe(401);
    expect((await call('POST', '/api/config', {})).status).toBe(405);
  });
});

describe('contact messages', () => {
  it('lists, shows and deletes messages for a token with the messages scope only', async () => {
    const outcome = await service.store.submit(
      { name: 'Asha Rao', telephone: '+91 98765 43210', message: 'Please call me.', language: 'en', idempotencyKey: 'control-api-0001' },
      { address: '192.0.2.1' },
    );
    const id = (outcome as { id: string }).id;
    const listed = await call('GET', '/api/messages?since=2020-01-01');
    expect((listed.body as { id: string }[]).map((message) => message.id)).toEqual([id]);
    expect((await call('GET', `/api/messages/${id}`)).body).toMatchObject({ id, name: 'Asha Rao' });
    expect((await call('GET', '/api/messages', { token: tokens.integrator })).status).toBe(403);
    expect((await call('GET', '/api/messages?since=yesterday-ish')).status).toBe(400);
    expect((await call('GET', '/api/messages?export=xlsx')).body).toMatchObject({ field: 'export' });
    expect((await call('DELETE', `/api/messages/${id}`)).body).toEqual({ deleted: id });
    expect((await call('GET', `/api/messages/${id}`)).status).toBe(404);
  });
});

describe('canaries', () => {
  /** The health backend, faked: aggregates by release id, and what it was asked. */
  const healthOf = new Map<string, ReleaseHealth>();
  const asked: { section: string; releaseIds: readonly string[]; since: Date }[] = [];
  const health: HealthSource = (section, releaseIds, since) => {
    asked.push({ section, releaseIds, since });
    return Promise.resolve(Object.fromEntries(releaseIds.filter((id) => healthOf.has(id)).map((id) => [id, healthOf.get(id)!])));
  };
  let withHealth: ControlApi;
  let old: string;
  let next: string;
  const canary = (body: unknown, options: { token?: string; section?: string } = {}) =>
    call('POST', `/api/sections/${options.section ?? 'home'}/canary`, { server: withHealth, token: options.token, body });

  beforeAll(async () => {
    withHealth = await startControlApi({ store, port: 0, publishChecks: fakeChecks, publicUrl: 'https://www.lender.example', log: silentLogger, health });
    old = (await publish('home', 'canary-old')).body.id as string;
    next = (await publish('home', 'canary-next')).body.id as string;
    expect((await call('POST', '/api/sections/home/active', { body: { release: old } })).status).toBe(200);
  });

  afterAll(() => withHealth?.close());

  it("starts one: 200 with the section's state, the candidate, its share and thresholds, and both releases' health since it started", async () => {
    healthOf.set(old, { visits: 40, failures: 1, failureRate: 0.025, failuresByClass: { timeout: 1 }, lcpP75: 2100, inpP75: 90, clsP75: 0.02 });
    const started = await canary({ release: next, percent: 10, minVisits: 20, promoteAfterVisits: 100, note: 'the new banner' }, { token: tokens['ci-home'] });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      active: expect.objectContaining({ id: old }),
      previous: null,
      since: expect.any(String),
      by: 'environment',
      interactive: false,
      candidate: expect.objectContaining({ id: next, section: 'home' }),
      percent: 10,
      canary: {
        id: expect.any(Number),
        minVisits: 20,
        maxFailureDelta: 0.02,
        maxSlowdown: 0.25,
        promoteAfterVisits: 100,
        minNetworks: 5,
        maxNetworkShare: 0.2,
        startedAt: expect.any(String),
        startedBy: 'ci-home',
      },
      // What the judge counts (none of this canary's yet), the reports since its hour beside.
      health: {
        [old]: {
          visits: 0,
          failures: 0,
          failureRate: 0,
          failuresByClass: { timeout: 1 },
          lcpP75: null,
          inpP75: null,
          clsP75: 0.02,
          raw: { visits: 40, failures: 1, failureRate: 0.025, lcpP75: 2100, inpP75: 90 },
        },
        [next]: { visits: 0, failures: 0, failureRate: 0, failuresByClass: {}, lcpP75: null, inpP75: null, clsP75: null },
      },
      // What the judge reads: this canary's own counts, none yet.
      judged: {
        [old]: { networks: 0, renderFailures: 0, setAside: 0, contactErrors: 0, broken: null },
        [next]: { networks: 0, renderFailures: 0, setAside: 0, contactErrors: 0, broken: null },
      },
      // The canary's window: both releases compared since it started.
      healthSince: (started.body.canary as { startedAt: string }).startedAt,
      // The section's entry (sections as data), as GET /api/sections gives it.
      labels: { en: 'Home', id: 'Beranda' },
      origins: [],
      order: 0,
      markets: ['IN', 'ID'],
      hidden: false,
      builtIn: true,
      policy: 'activate',
    });
    const startedAt = (started.body.canary as { startedAt: string }).startedAt;
    expect(asked.at(-1)).toEqual({ section: 'home', releaseIds: [old, next], since: new Date(startedAt) });
    // The same object GET /api/sections gives for the section.
    expect((await call('GET', '/api/sections', { server: withHealth })).body.home).toEqual(started.body);
    expect(((await call('GET', '/api/releases?section=home')).body as { id: string; state: string }[]).find((release) => release.id === next)?.state).toBe(
      'candidate',
    );
    const [entry] = (await call('GET', '/api/audit?section=home&limit=1')).body as Record<string, unknown>[];
    expect(entry).toMatchObject({
      actor: 'ci-home',
      action: 'canary',
      release: next,
      from: old,
      detail: expect.stringMatching(/^the new banner; 10 % of visits; judged from 20 visits/),
    });
  });

  it('refuses a bad body (400, naming the field), an unknown section or release (404), a section token elsewhere (403), and a conflict (409)', async () => {
    for (const [body, field] of [
      [{ release: next, percent: 0 }, 'percent'],
      [{ release: next, percent: 100 }, 'percent'],
      [{ release: next, percent: '10' }, 'percent'],
      [{ release: next }, 'percent'],
      [{ release: next, percent: 10, maxFailureDelta: -0.1 }, 'maxFailureDelta'],
      [{ release: next, percent: 10, maxSlowdown: -1 }, 'maxSlowdown'],
      [{ release: next, percent: 10, minVisits: 2.5 }, 'minVisits'],
      [{ release: next, percent: 10, minNetworks: '5' }, 'minNetworks'],
      [{ release: next, percent: 10, minNetworks: 0 }, 'minNetworks'],
      [{ release: next, percent: 10, minNetworks: 3 }, 'maxNetworkShare'],
      [{ release: next, percent: 10, maxNetworkShare: 0 }, 'maxNetworkShare'],
      [{ release: next, percent: 10, percentage: 10 }, ''],
    ] as const) {
      const answer = await canary(body);
      expect([body, answer.status, answer.body.field ?? '']).toEqual([body, 400, field]);
    }
    expect((await canary({ release: next, percent: 10 }, { section: 'careers' })).status).toBe(404);
    expect((await canary({ release: 'home-987654', percent: 10 })).status).toBe(404);
    expect((await canary({ release: next, percent: 10 }, { token: tokens['ci-contact'] })).status).toBe(403);
    expect((await canary({ release: next, percent: 10 }, { token: tokens['ci-contact'], section: 'contact' })).status).toBe(403);
    const contact = (await publish('contact', 'canary-elsewhere')).body.id as string;
    expect((await canary({ release: contact, percent: 10 })).status).toBe(409);
    expect((await canary({ release: old, percent: 10 })).status).toBe(409);
    const another = (await publish('home', 'canary-another')).body.id as string;
    const second = await canary({ release: another, percent: 10 });
    expect(second.status).toBe(409);
    expect(second.body.error).toContain(`already has a canary, ${next}`);
    for (const route of ['/api/sections/home/canary/promote', '/api/sections/home/canary']) {
      expect((await call(route.endsWith('promote') ? 'POST' : 'DELETE', route, { token: tokens['ci-contact'] })).status).toBe(403);
    }
    const wrongMethod = await call('GET', '/api/sections/home/canary');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, DELETE');
    // The canary is as it was.
    expect((await store.canaries.running()).home).toMatchObject({ release: { id: next }, percent: 10, minVisits: 20 });
  });

  it('aborts (200, the active release alone) and promotes (200, the candidate active); 409 when no canary runs', async () => {
    const asking = Date.now();
    const aborted = await call('DELETE', '/api/sections/home/canary', { server: withHealth, token: tokens['ci-home'] });
    const answered = Date.now();
    expect(aborted.status).toBe(200);
    expect(aborted.body).toMatchObject({ active: { id: old } });
    expect(aborted.body).not.toHaveProperty('candidate');
    expect(Object.keys(aborted.body.health as object)).toEqual([old]);
    // With no canary, health is over the last day.
    expect(asked.at(-1)!.since.getTime()).toBeGreaterThanOrEqual(asking - 24 * 3600_000);
    expect(asked.at(-1)!.since.getTime()).toBeLessThanOrEqual(answered - 24 * 3600_000);
    expect((await call('DELETE', '/api/sections/home/canary')).status).toBe(409);
    expect((await call('POST', '/api/sections/home/canary/promote', { body: {} })).status).toBe(409);

    expect((await canary({ release: next, percent: 50 })).status).toBe(200);
    const promoted = await call('POST', '/api/sections/home/canary/promote', { server: withHealth, body: { note: 'good numbers' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ active: { id: next }, previous: { id: old }, by: 'environment' });
    expect(promoted.body).not.toHaveProperty('percent');
    // Health that cannot be read does not fail the answer, nor pretend there were no visits.
    const failing = await startControlApi({
      store,
      port: 0,
      publishChecks: fakeChecks,
      publicUrl: 'https://www.lender.example',
      log: silentLogger,
      health: () => Promise.reject(new Error('aggregates away')),
    });
    try {
      const sections = await call('GET', '/api/sections', { server: failing });
      expect(sections.status).toBe(200);
      expect(sections.body.home).toMatchObject({
        active: { id: next },
        health: {},
        healthError: 'the health of the releases cannot be read now: aggregates away',
      });
    } finally {
      await failing.close();
    }
    const log = ((await call('GET', '/api/audit?section=home&limit=3')).body as { action: string; release: string; from: string; detail: string }[]).map(
      (entry) => [entry.action, entry.release, entry.from],
    );
    expect(log).toEqual([
      ['promote', next, old],
      ['canary', next, old],
      ['abort', next, old],
    ]);
  });
});

describe('with the database gone', () => {
  it('answers 503 to publish, activate and reads, and says so in the log', async () => {
    await service.database.close();
    const published = await publish('home', 'while-down');
    expect(published.status).toBe(503);
    expect((await call('POST', '/api/sections/home/rollback', { body: {} })).status).toBe(503);
    expect((await call('GET', '/api/sections')).status).toBe(503);
    // A database token cannot even be checked.
    expect((await call('GET', '/api/sections', { token: tokens.integrator })).status).toBe(503);
    expect(log.lines.some((line) => line.level === 50 && String(line.msg).includes('failed'))).toBe(true);
  });
});
