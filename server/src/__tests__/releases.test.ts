import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '@portico/platform/database';
import { serverTestDatabase, serverTestsRun, type TestDatabase, linesLogger } from '@portico/platform/testing';
import { existingBuild } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { serveDist, type DistServer } from '@portico/testing/serve-dist';
import { releaseFeed, startControlPlane, type ControlPlane } from '../control-plane';
import { startPortico, type RunningPortico } from '../portico-server';
import { RENDER_BLOCKS, RENDER_THROWS } from '@portico/testing/hostile-builds';
import { eventually } from '@portico/testing/eventually';

// Releases end to end below the browser: a control API publishing real
// builds through every check (the render check in the server's own section
// sandbox), and two page servers on one PostgreSQL server serving what is
// active. The browser test (tests/specs/releases.spec.ts) shows the page.

jest.setTimeout(120_000);

const REPO_ROOT = path.resolve(__dirname, '../../..');
const TOKEN = 'integrator-token-for-the-test';
const runs = serverTestsRun();
const describeWithPostgres = runs ? describe : describe.skip;

interface BuiltManifest {
  metaData: { ssrRemoteEntry: { name: string; path: string; integrity: string } };
}

/**
 * The contact build as its team's CDN serves it, on an origin of its own;
 * `payload` appended to its node build (renamed and re-hashed, as a build
 * would name it) makes another release of it.
 */
async function contactRelease(payload?: string): Promise<DistServer> {
  const dist = existingBuild('remote-contact');
  const server = await serveDist(dist);
  if (payload !== undefined) {
    const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as BuiltManifest;
    const entry = manifest.metaData.ssrRemoteEntry;
    const code = `${readFileSync(path.join(dist, entry.path, entry.name), 'utf8')}\n${payload}`;
    const name = `remoteEntry.${createHash('sha256').update(code).digest('hex').slice(0, 10)}.js`;
    manifest.metaData.ssrRemoteEntry = { ...entry, name, integrity: `sha384-${createHash('sha384').update(code).digest('base64')}` };
    server.overrides.set(`/${entry.path}/${name}`, { body: code });
    server.overrides.set('/mf-manifest.json', { body: JSON.stringify(manifest) });
  }
  return server;
}

/** The hash of the node build a dist/'s manifest names: the key the server's section workers know it by. */
function nodeBuildOf(dist: string): string {
  return (JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as BuiltManifest).metaData.ssrRemoteEntry.integrity;
}

describeWithPostgres('releases on two servers sharing one PostgreSQL server', () => {
  let database: TestDatabase;
  let first: DistServer;
  let second: DistServer;
  let throwing: DistServer;
  /**
   * A build whose render never ends: it passed its checks once (published
   * straight into the store here), and blocks on every server. It waits
   * rather than spins: what is tested is the release bookkeeping after the
   * deadline's kills, not the kill of a spinning worker
   * (hostile-sections.test.ts), and a spin would burn a core per deadline.
   */
  let looping: DistServer;
  /** A build whose render throws, likewise. */
  let renderThrows: DistServer;
  let folder: string;
  const pools: Database[] = [];
  const servers: RunningPortico[] = [];
  let control: ControlPlane;
  const log: string[] = [];

  beforeAll(async () => {
    database = serverTestDatabase();
    [first, second, throwing, looping, renderThrows] = await Promise.all([
      contactRelease(),
      contactRelease('/* the second release */'),
      contactRelease(';throw new Error("this build throws as it loads");'),
      contactRelease(RENDER_BLOCKS),
      contactRelease(RENDER_THROWS),
    ]);
    folder = mkdtempSync(path.join(tmpdir(), 'portico-releases-'));
    const configPath = path.join(folder, 'config.json');
    writeFileSync(
      configPath,
      JSON.stringify({ ...sampleConfig, allowedRemoteOrigins: [first.origin, second.origin, throwing.origin, looping.origin, renderThrows.origin] }),
    );
    for (let index = 0; index < 2; index++) {
      const db = await database.open();
      pools.push(db);
      const storeOpened =
        index === 0
          ? startControlPlane(db, {
              configPath,
              basePort: 0,
              ports: () => servers[0]?.ports ?? [],
              environmentToken: TOKEN,
              listen: { port: 0, host: '127.0.0.1' },
              publicUrl: 'http://localhost',
              renderCheck: () =>
                servers[0]?.checkRender && ((section, build) => servers[0]!.checkRender(section, { key: build.integrity, url: build.url, code: build.code })),
              log: linesLogger((line) => log.push(line)),
            }).then((plane) => (control = plane).store)
          : (await import('@portico/releases')).ReleaseStore.open(db);
      servers.push(
        await startPortico({
          rootDir: REPO_ROOT,
          basePort: 0,
          configPath,
          log: linesLogger((line) => log.push(`server ${index}: ${line}`)),
          releases: releaseFeed(storeOpened),
        }),
      );
    }
  });
  afterAll(async () => {
    await control?.close();
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(pools.map((db) => db.close()));
    await Promise.all([first, second, throwing, looping, renderThrows].map((server) => server?.close()));
    database?.cleanUp();
    rmSync(folder, { recursive: true, force: true });
  });

  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${control.api.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { checks?: { name: string; ok: boolean; detail: string }[] } };
  };
  const served = async (server: RunningPortico) =>
    ((await (await fetch(`${server.url}/config.json`)).json()) as { remotes: Record<string, string> }).remotes.contact;
  /** How long until both servers serve `url` for contact in config.json. */
  async function bothServe(url: string): Promise<number> {
    const started = Date.now();
    await eventually(
      async () => {
        const remotes = await Promise.all(servers.map(served));
        if (remotes.some((remote) => remote !== url)) throw new Error(`served: ${JSON.stringify(remotes)}\n${log.join('\n')}`);
      },
      { what: `${url} served by both`, withinMs: 20_000 },
    );
    return Date.now() - started;
  }

  test('a build passes every check, the render in the section sandbox included, and its activation reaches both servers, server-rendered', async () => {
    const published = await api('POST', '/api/releases', { section: 'contact', manifestUrl: `${first.origin}/mf-manifest.json` });
    expect(published.status).toBe(201);
    const pin = `sha384-${createHash('sha384')
      .update(readFileSync(path.join(existingBuild('remote-contact'), 'mf-manifest.json')))
      .digest('base64')}`;
    expect(published.body).toMatchObject({ id: expect.stringMatching(/^contact-\d+$/), integrity: pin });

    expect((await api('POST', '/api/sections/contact/active', { release: published.body.id })).status).toBe(200);
    await bothServe(`${first.origin}/mf-manifest.json`);
    // The other server's page is rendered on the server with the release, as its workers warmed it.
    // (config.json's other sections are on ports nobody serves here: only Contact is rendered.)
    await eventually(async () => expect(await (await fetch(servers[1]!.url)).text()).toMatch(/"rendered":\["contact"\]/), {
      what: "the other server's page rendered",
      withinMs: 20_000,
      everyMs: 50,
    });
  });

  test('a node build that throws is refused by the render check, with the reason, and nothing is served from it', async () => {
    const refused = await api('POST', '/api/releases', { section: 'contact', manifestUrl: `${throwing.origin}/mf-manifest.json` });
    expect(refused.status).toBe(422);
    const render = refused.body.checks?.find((check) => check.name === 'render');
    expect(render).toMatchObject({ ok: false, detail: expect.stringContaining('this build throws as it loads') });
    expect(refused.body.checks?.filter((check) => !check.ok).map((check) => check.name)).toEqual(['render']);
    const listed = await api('GET', '/api/releases?section=contact');
    expect(JSON.stringify(listed.body)).not.toContain(throwing.origin);
  });

  test("rollback to the release two back, then to config.json's URL, reach both servers; past that a rollback has nowhere to go", async () => {
    const v2 = await api('POST', '/api/releases', { section: 'contact', manifestUrl: `${second.origin}/mf-manifest.json` });
    expect(v2.status).toBe(201);
    const v1 = (await api('GET', '/api/releases?section=contact')).body as unknown as { id: string; manifestUrl: string }[];
    const firstId = v1.find((release) => release.manifestUrl.startsWith(first.origin))!.id;
    await api('POST', '/api/sections/contact/active', { release: v2.body.id });
    await bothServe(`${second.origin}/mf-manifest.json`);

    // Back to the first, two steps down the history: first, second, (first again).
    const back = await api('POST', '/api/sections/contact/rollback', {});
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ active: { id: firstId } });
    await bothServe(`${first.origin}/mf-manifest.json`);

    // The first release rolled back: config.json's URL on both servers within 2 s, audited.
    const toConfig = await api('POST', '/api/sections/contact/rollback', {});
    expect(toConfig.status).toBe(200);
    expect(toConfig.body).toMatchObject({ section: 'contact', active: null, previous: { id: firstId } });
    expect(await bothServe(sampleConfig.remotes.contact)).toBeLessThan(2000);
    const [entry] = (await api('GET', '/api/audit?section=contact&limit=1')).body as unknown as Record<string, unknown>[];
    expect(entry).toMatchObject({ actor: 'environment', action: 'rollback', section: 'contact', release: null, from: firstId });
    expect((await api('GET', '/api/sections')).body.contact).toMatchObject({
      active: null,
      previous: null,
      by: 'environment',
      configured: sampleConfig.remotes.contact,
    });

    const none = await api('POST', '/api/sections/contact/rollback', {});
    expect(none.status).toBe(409);
    // The tests below start from the first release, active.
    expect((await api('POST', '/api/sections/contact/active', { release: firstId })).status).toBe(200);
    await bothServe(`${first.origin}/mf-manifest.json`);
  });

  test("a preview link is server-rendered by a worker of its own: the live section's worker is not restarted", async () => {
    const candidate = await api('POST', '/api/releases', { section: 'contact', manifestUrl: `${second.origin}/mf-manifest.json` });
    const link = await api('POST', `/api/releases/${String(candidate.body.id)}/preview`, {});
    expect(link.status).toBe(201);
    const token = new URL(String(link.body.url)).searchParams.get('preview')!;
    // The rollback before this test is served already; its new plan (the first build alone) may still be starting.
    const firstBuild = nodeBuildOf(existingBuild('remote-contact'));
    const contactWorker = () => servers[0]!.renderWorker()!.sections.contact;
    await eventually(() => expect([contactWorker().builds, contactWorker().wanted]).toEqual([[firstBuild], [firstBuild]]), {
      what: 'the first build alone live',
      withinMs: 20_000,
      everyMs: 50,
    });
    const live = contactWorker();
    const logged = log.length;
    const page = await eventually(
      async () => {
        const text = await (await fetch(`${servers[0]!.url}/?preview=${token}`)).text();
        expect(text).toMatch(/"rendered":\["contact"\]/);
        return text;
      },
      { what: 'the preview rendered on the server', withinMs: 20_000, everyMs: 50 },
    );
    expect(page).toContain(`${second.origin}/mf-manifest.json`);
    expect(page).toContain(`release ${String(candidate.body.id)}`);
    // The live worker may have been replaced meanwhile for a reason of its own
    // (a render past its deadline on a busy machine: the supervisor logs each
    // start with its cause); never because the preview changed its plan.
    const restarts = log.slice(logged).filter((line) => line.startsWith("server 0: the contact section's worker ") && / started: /.test(line));
    expect(restarts.filter((line) => line.includes('its plan changed'))).toEqual([]);
    if (restarts.length > 0) process.stderr.write(`the live contact worker was restarted during the preview, not by it: ${restarts.join('; ')}\n`);
    else expect(contactWorker()).toEqual(live);
    // Everyone else still gets the live release.
    expect(await served(servers[0]!)).not.toBe(`${second.origin}/mf-manifest.json`);
  });

  test('a published build later changed on its host is marked broken by the background check', async () => {
    const active = (await api('GET', '/api/sections')).body as unknown as { contact: { active: { id: string; manifestUrl: string } } };
    const { id, manifestUrl } = active.contact.active;
    const host = [first, second].find((server) => manifestUrl.startsWith(server.origin))!;
    const original = readFileSync(path.join(existingBuild('remote-contact'), 'remoteEntry.js'));
    host.overrides.set('/remoteEntry.js', { body: Buffer.concat([original, Buffer.from('\n// changed after publishing')]) });
    await control.recheck();
    const listed = (await api('GET', '/api/releases?section=contact')).body as unknown as { id: string; broken?: { detail: string } }[];
    expect(listed.find((release) => release.id === id)?.broken?.detail).toContain('integrity');
    const audit = (await api('GET', '/api/audit')).body as unknown as { action: string; release: string }[];
    expect(audit[0]).toMatchObject({ action: 'broken', release: id });
    host.overrides.delete('/remoteEntry.js');
  });

  /** A build as a release, published straight into the store: as if it had passed its checks and broken later. */
  async function straightRelease(host: DistServer, buildId: string): Promise<string> {
    const manifest = (host.overrides.get('/mf-manifest.json') as { body: string }).body;
    const integrity = `sha384-${createHash('sha384').update(manifest).digest('base64')}`;
    const input = {
      section: 'contact' as const,
      manifestUrl: `${host.origin}/mf-manifest.json`,
      integrity,
      version: '1.0.0',
      buildId,
      createdBy: 'ci',
      checks: [],
    };
    return (await control.store.releases.publish(input)).release.id;
  }
  const loopingRelease = () => straightRelease(looping, 'loops-later');

  test("a candidate whose render throws on the server has its render failures counted for the judge, in its section's state", async () => {
    const candidate = await straightRelease(renderThrows, 'throws-later');
    // Judged from many visits, and none reported: the failures are shown, not yet decisive.
    expect((await api('POST', '/api/sections/contact/canary', { release: candidate, percent: 50, minVisits: 1000 })).status).toBe(200);
    try {
      // Its worker renders it as it warms (before any page asks): each render's failure is told to the store.
      const judged = await eventually(
        async () => {
          const now =
            ((await api('GET', '/api/sections')).body as unknown as { contact: { judged?: Record<string, { renderFailures: number }> } }).contact.judged ?? {};
          if ((now[candidate]?.renderFailures ?? 0) === 0) throw new Error(`judged: ${JSON.stringify(now)}\n${log.slice(-20).join('\n')}`);
          return now;
        },
        { what: 'a render failure counted', withinMs: 30_000, everyMs: 100 },
      );
      const active = ((await api('GET', '/api/sections')).body as unknown as { contact: { active: { id: string } } }).contact.active.id;
      expect(judged[active]).toMatchObject({ renderFailures: 0 });
    } finally {
      expect((await api('DELETE', '/api/sections/contact/canary')).status).toBe(200);
    }
  });

  /** Polls the audit log until an entry matches, within a generous bound: the workers' deaths and waits set the pace. */
  async function audited(
    match: (entry: { action: string; actor: string; release: string; detail: string }) => boolean,
  ): Promise<{ action: string; actor: string; release: string; detail: string }> {
    return eventually(
      async () => {
        const entry = (
          (await api('GET', '/api/audit?section=contact&limit=20')).body as unknown as { action: string; actor: string; release: string; detail: string }[]
        ).find(match);
        if (!entry) throw new Error(`no such audit entry; the servers' last lines:\n${log.slice(-40).join('\n')}`);
        return entry;
      },
      { what: 'the audit entry', withinMs: 90_000, everyMs: 250 },
    );
  }

  test('a candidate whose node build a server sets aside is rolled back by the judge with no visitor report; the active release keeps its worker', async () => {
    const candidate = await loopingRelease();
    const activeBefore = ((await api('GET', '/api/sections')).body as unknown as { contact: { active: { id: string } } }).contact.active.id;
    const liveBuild = () => servers[0]!.renderWorker()!.sections.contact.builds;
    // The plan of the test before (a release changed on its host and back) settled first.
    await eventually(() => expect(liveBuild()).toEqual(servers[0]!.renderWorker()!.sections.contact.wanted), {
      what: "the contact worker's plan live",
      withinMs: 20_000,
      everyMs: 50,
    });
    const builds = liveBuild();
    const started = await api('POST', '/api/sections/contact/canary', { release: candidate, percent: 50 });
    expect(started.status).toBe(200);
    // No beacon on these servers: nothing but what the servers see decides it.
    const entry = await audited((one) => one.action === 'auto-rollback' && one.release === candidate);
    expect(entry).toMatchObject({
      actor: 'canary-judge',
      detail: expect.stringMatching(
        new RegExp(`^${candidate} is worse than ${activeBefore}: its node build was set aside on the server — candidate ${candidate}: set aside`),
      ),
    });
    expect(log.join('\n')).toMatch(/the contact section's canary worker .*3 times in a row: this build is rendered in the browser only until it changes/);
    // Its deaths were its own worker's: the active release's worker ran on, with the same builds.
    expect(liveBuild()).toEqual(builds);
    const state = (await api('GET', '/api/sections')).body as unknown as { contact: { active: { id: string; setAside?: unknown }; candidate?: unknown } };
    expect(state.contact.active.id).toBe(activeBefore);
    expect(state.contact.active).not.toHaveProperty('setAside');
    expect(state.contact).not.toHaveProperty('candidate');
  });

  test("an active release whose node build a server sets aside is marked in the section's state and the audit log, and a rollback away from it serves the one before", async () => {
    const loopingId = await loopingRelease();
    expect((await api('POST', '/api/sections/contact/active', { release: loopingId })).status).toBe(200);
    const entry = await audited((one) => one.action === 'set-aside' && one.release === loopingId);
    expect(entry).toMatchObject({
      actor: 'server',
      detail: expect.stringMatching(
        /^the active release's node build is rendered in the browser only: the contact section's worker: its worker did not answer within 3 s, 3 times in a row$/,
      ),
    });
    const state = (await api('GET', '/api/sections')).body as unknown as { contact: { active: { id: string; setAside?: { detail: string } } } };
    expect(state.contact.active).toMatchObject({ id: loopingId, setAside: { at: expect.any(String), detail: expect.stringContaining('3 times in a row') } });
    expect((await api('POST', '/api/sections/contact/rollback', {})).status).toBe(200);
    const back = (await api('GET', '/api/sections')).body as unknown as { contact: { active: { id: string; setAside?: unknown } } };
    expect(back.contact.active.id).not.toBe(loopingId);
    expect(back.contact.active).not.toHaveProperty('setAside');
  });
});
