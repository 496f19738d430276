import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BEACON_PATH, VISIT_PATH, type VisitReport } from '@portico/contract/beacon';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';
import { serverTestDatabase, serverTestsRun, type TestDatabase, linesLogger } from '@portico/platform/testing';
import { HealthStore, judgeCanary, JUDGE_ACTOR, ReleaseStore, type Canary } from '@portico/releases';
import { beaconEndpoint, type BeaconEndpoint } from '../beacon/beacon-endpoint';
import { releaseFeed, startControlPlane, type ControlPlane } from '../control-plane';
import { startPortico, type RunningPortico } from '../portico-server';
import { eventually } from '@portico/testing/eventually';

// Canary decisions as an outsider would try to steer them (issue 32): two page
// servers on one PostgreSQL server behind a proxy they trust (each network is
// the address in X-Forwarded-For), real visitors from ten networks, and one
// network with every token and id a page hands out. The per-network cap on
// each server is lifted here, so what holds is the visit ids and the judge's
// bounds, not that cap. The figures are printed for the closing note.

jest.setTimeout(180_000);

const describeWithPostgres = serverTestsRun() ? describe : describe.skip;
/** The ten networks real visitors come from (ten /24s: the judge counts an IPv4 client by its /24), and the outsider's one. */
const REAL_NETWORKS = Array.from({ length: 10 }, (_, index) => `203.0.${113 + index}.10`);
const OUTSIDER = '198.51.100.66';
/** Cohort buckets: below the canaries' 50 % the candidate, at or above it the active release. */
const CANDIDATE_BUCKET = 3;
const ACTIVE_BUCKET = 70;
const FORGED = 1000;

/** Four built apps of one file each: the page is the client-rendered index.html (what a visit id is issued for is the same). */
function fakeBuild(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'portico-canary-attack-'));
  for (const app of APP_NAMES) {
    const dist = path.join(root, APP_DIRS[app], 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portico</title>');
    writeFileSync(path.join(dist, 'mf-manifest.json'), '{}');
  }
  return root;
}

interface Health {
  releases: Record<string, string>;
  token: string;
}

describeWithPostgres('canary decisions on two servers no outsider can steer', () => {
  let database: TestDatabase;
  let root: string;
  const pools: Database[] = [];
  const servers: RunningPortico[] = [];
  const beacons: BeaconEndpoint[] = [];
  let control: ControlPlane;
  let store: ReleaseStore;
  let health: HealthStore;
  const log: string[] = [];
  let active: string;
  /** When set, the store's clock (what a canary's start is stamped with): this moment, a second further at each read. */
  let pinned: number | undefined;

  beforeAll(async () => {
    database = serverTestDatabase();
    root = fakeBuild();
    for (let index = 0; index < 2; index++) {
      const db = await database.open();
      pools.push(db);
      let stores: Promise<{ store: ReleaseStore; health: HealthStore }>;
      if (index === 0) {
        control = await startControlPlane(db, {
          basePort: 0,
          ports: () => servers[0]?.ports ?? [],
          listen: { port: 0, host: '127.0.0.1' },
          publicUrl: 'http://localhost',
          renderCheck: () => undefined,
          // Judged when the test says: each round is a judgeNow().
          judgeEveryMs: 3_600_000,
          now: () => (pinned === undefined ? Date.now() : (pinned += 1000)),
          log: linesLogger((line) => log.push(line)),
        });
        stores = Promise.resolve({ store: control.store, health: control.health });
      } else {
        stores = (async () => {
          const other = await ReleaseStore.open(db);
          return { store: other, health: await HealthStore.open(db) };
        })();
      }
      const opened = await stores;
      const endpoint = beaconEndpoint({
        health: opened.health,
        secret: () => opened.store.previewSecret(),
        log: linesLogger((line) => log.push(`server ${index}: ${line}`)),
        // Lifted: the bounds under test are the ids' and the judge's, not each server's cap.
        limits: { perNetwork: Number.POSITIVE_INFINITY, perBlock: Number.POSITIVE_INFINITY, flushMs: 3_600_000 },
      });
      beacons.push(endpoint);
      servers.push(
        await startPortico({
          rootDir: root,
          basePort: 0,
          host: '127.0.0.1',
          ssr: false,
          trustProxy: true,
          beacon: endpoint,
          releases: releaseFeed(Promise.resolve(opened.store)),
          log: linesLogger((line) => log.push(`server ${index}: ${line}`)),
        }),
      );
    }
    store = control.store;
    health = control.health;
    let builds = 0;
    const publish = async () => {
      builds++;
      const input = {
        section: 'contact' as const,
        manifestUrl: `https://cdn.example/contact/${builds}/mf-manifest.json`,
        integrity: `sha384-${builds}`,
        version: '1.0.0',
        buildId: `b${builds}`,
        createdBy: 'ci',
        checks: [],
      };
      return (await store.releases.publish(input)).release.id;
    };
    active = await publish();
    await store.history.activate('contact', active, 'integrator');
    candidates.push(await publish(), await publish(), await publish());
  });

  afterAll(async () => {
    await control?.close();
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(beacons.map((endpoint) => endpoint.close()));
    await Promise.all(pools.map((db) => db.close()));
    database?.cleanUp();
    rmSync(root, { recursive: true, force: true });
  });

  const candidates: string[] = [];

  // A test that failed half-way must not leave its canary to the next.
  afterEach(async () => {
    pinned = undefined;
    if ((await store.canaries.running()).contact) await store.canaries.abort('contact', 'integrator', 'abort');
    await bothServe(undefined);
  });

  /** Until both servers serve the canary (or none): they hear of it through the store. */
  async function bothServe(canary: Canary | undefined): Promise<void> {
    await eventually(
      () => {
        if (servers.some((server) => server.releases().canaries.contact?.id !== canary?.id)) throw new Error(`the servers' log:\n${log.join('\n')}`);
      },
      { what: `the canary ${canary?.id ?? '(none)'} served by both servers`, withinMs: 20_000 },
    );
  }

  /** A request through the proxy from `network`, with the cohort cookie of `bucket`. */
  const through = (network: string, bucket: number, extra: Record<string, string> = {}) => ({
    'X-Forwarded-For': network,
    Cookie: `portico_cohort=${bucket}`,
    ...extra,
  });

  /** The page, then its config, as a browser loads them: the visit id the page came with (Server-Timing), and the report token it carries. */
  async function page(server: RunningPortico, network: string, bucket: number): Promise<{ health: Health; visit?: string }> {
    const answer = await fetch(`${server.url}/`, { headers: through(network, bucket) });
    expect(answer.status).toBe(200);
    const visit = /^visit;desc="([^"]+)"$/.exec(answer.headers.get('server-timing') ?? '')?.[1];
    const config = (await (await fetch(`${server.url}/config.json`, { headers: through(network, bucket) })).json()) as { health: Health };
    return { health: config.health, visit };
  }

  /** POST /api/visit as the page script sends it: the id, or the refusal's status. */
  async function visitId(server: RunningPortico, network: string, bucket: number, token: string): Promise<{ status: number; visit?: string }> {
    const answer = await fetch(`${server.url}${VISIT_PATH}`, {
      method: 'POST',
      headers: through(network, bucket, { Origin: server.url, 'Content-Type': 'application/json' }),
      body: JSON.stringify({ token }),
    });
    return answer.status === 200 ? { status: 200, visit: ((await answer.json()) as { visit: string }).visit } : { status: answer.status };
  }

  async function beacon(server: RunningPortico, network: string, report: VisitReport): Promise<void> {
    const answer = await fetch(`${server.url}${BEACON_PATH}`, {
      method: 'POST',
      headers: through(network, 0, { Origin: server.url, 'Content-Type': 'text/plain;charset=UTF-8' }),
      body: JSON.stringify(report),
    });
    expect(answer.status).toBe(204);
  }

  const reportOf = (visit: string, release: string, failed: boolean, lcp: number): VisitReport => ({
    v: 2,
    visit,
    sections: { contact: failed ? { release, arrival: 'failed', failure: 'render' } : { release, arrival: 'ssr' } },
    vitals: { lcp, inp: 80 },
  });

  /** Visits per cohort so far: the balancer sends each cohort's visitors to the servers in turn. */
  const turns = new Map<number, number>();

  /**
   * A real visit: a page with its id (a browser on HTTPS or loopback reads
   * it off the page; the POST for one is for pages without, tested in
   * beacon-endpoint.test.ts), its report (to the other server: reports go
   * where the balancer sends them).
   */
  async function realVisit(network: string, bucket: number, failed: boolean): Promise<void> {
    const turn = turns.get(bucket) ?? 0;
    turns.set(bucket, turn + 1);
    const { health, visit } = await page(servers[turn % 2]!, network, bucket);
    expect(visit).toEqual(expect.any(String));
    await beacon(servers[(turn + 1) % 2]!, network, reportOf(visit!, health.releases.contact!, failed, 1800 + (turn % 7) * 50));
  }

  /** Real visitors: `perNetwork` visits of each cohort from each real network; `failing` of each network's candidate visits fail. */
  async function realTraffic(perNetwork: number, failing: number): Promise<void> {
    for (const network of REAL_NETWORKS) {
      for (let visit = 0; visit < perNetwork; visit++) {
        await realVisit(network, CANDIDATE_BUCKET, visit < failing);
        await realVisit(network, ACTIVE_BUCKET, false);
      }
    }
  }

  interface Attack {
    reports: number;
    counted: number;
    pagesFetched: number;
    idsRefused: number;
  }

  /**
   * The outsider: one network, every token a page hands out (config.json
   * with every cohort cookie), every id it can get (each page's own, one
   * page fetched per id, alternating the servers, and the slack asked for
   * with no page), `FORGED` reports, each sent to both servers. `forge` says
   * what each report claims for the release its token names.
   */
  async function attack(forge: (release: string) => { failed: boolean; lcp: number } | undefined): Promise<Attack> {
    const tokens = new Map<string, Health>();
    const ids: { visit: string; release: string }[] = [];
    for (let bucket = 0; bucket < 100; bucket++) {
      const { health, visit } = await page(servers[bucket % 2]!, OUTSIDER, bucket);
      tokens.set(health.releases.contact!, health);
      if (visit && forge(health.releases.contact!) !== undefined) ids.push({ visit, release: health.releases.contact! });
    }
    const sides = [...tokens.values()].filter((health) => forge(health.releases.contact!) !== undefined);
    let pagesFetched = 100;
    let idsRefused = 0;
    let reports = 0;
    // Then what comes free: the slack, with no page more.
    for (const health of sides) {
      for (const server of servers) {
        for (let free = 0; ; free++) {
          const answer = await visitId(server, OUTSIDER, 0, health.token);
          if (!answer.visit) {
            idsRefused++;
            break;
          }
          ids.push({ visit: answer.visit, release: health.releases.contact! });
        }
      }
    }
    // Then a page per id, as long as it takes.
    for (let index = 0; ids.length < FORGED; index++) {
      const health = sides[index % sides.length]!;
      const bucket = health.releases.contact === active ? ACTIVE_BUCKET : CANDIDATE_BUCKET;
      const server = servers[index % 2]!;
      const { visit } = await page(server, OUTSIDER, bucket);
      pagesFetched++;
      if (visit) ids.push({ visit, release: health.releases.contact! });
      // And the POST for one, as a page without its own would: refused once the slack is spent.
      const answer = await visitId(server, OUTSIDER, bucket, health.token);
      if (answer.visit) ids.push({ visit: answer.visit, release: health.releases.contact! });
      else idsRefused++;
    }
    for (const [index, { visit, release }] of ids.slice(0, FORGED).entries()) {
      const forged = forge(release)!;
      const report = reportOf(visit, release, forged.failed, forged.lcp);
      // To one server, and replayed to the other.
      await beacon(servers[index % 2]!, OUTSIDER, report);
      await beacon(servers[(index + 1) % 2]!, OUTSIDER, report);
      reports += 2;
    }
    // A report with the page's token in place of an id, and one with a made-up id, for good measure.
    const health = sides[0]!;
    await beacon(servers[0]!, OUTSIDER, reportOf(health.token, health.releases.contact!, true, 90_000));
    await beacon(servers[0]!, OUTSIDER, reportOf('eyJyIjp7fX0.Zm9yZ2Vk', health.releases.contact!, true, 90_000));
    return { reports: reports + 2, counted: 0, pagesFetched, idsRefused };
  }

  async function flush(): Promise<void> {
    await Promise.all(beacons.map((endpoint) => endpoint.flush()));
  }

  /** A release's visits as reported (release_health; the health read bounds the canary's networks, and gives the reports as `raw` then). */
  const visitsOf = async (release: string, since: string) => {
    const read = (await health.health('contact', [release], new Date(since)))[release]!;
    return { ...read, ...read.raw };
  };
  /** Every visit counted for the canary's two releases in its hour (release_health, what GET /api/sections shows as `raw`). */
  const visitsOfBoth = async (canary: Canary) => {
    await flush();
    return (await visitsOf(canary.release.id, canary.startedAt)).visits + (await visitsOf(active, canary.startedAt)).visits;
  };

  /** The judge's round, and what it decided: the audit entry, or what it would say now. */
  async function judged(canary: Canary): Promise<{ action: string; detail: string; networks: { candidate: number; active: number } }> {
    await flush();
    const counts = await store.canaries.counts(canary, active);
    await control.judge!.judgeNow();
    const entry = (await store.audit.list({ sections: ['contact'], limit: 1 }))[0]!;
    const networks = { candidate: counts.candidate.networks.length, active: counts.active.networks.length };
    if (entry.actor === JUDGE_ACTOR && entry.release === canary.release.id) return { action: entry.action, detail: entry.detail, networks };
    const now = (await store.canaries.running()).contact ?? canary;
    const decision = judgeCanary(now, counts, active);
    return { action: 'running', detail: decision.reason, networks };
  }

  const print = (what: string, attackDone: Attack, outcome: Awaited<ReturnType<typeof judged>>) =>
    process.stdout.write(
      `canary attack, ${what}: ${attackDone.reports} forged reports (${FORGED} ids, each also replayed to the other server) from 1 network (${attackDone.pagesFetched} pages fetched, ${attackDone.idsRefused} ids refused), ` +
        `beside ${REAL_NETWORKS.length} real networks; counted ${attackDone.counted} of them once each; the judge read ${outcome.networks.candidate} networks for the candidate, ${outcome.networks.active} for the active; ` +
        `decided: ${outcome.action} (${outcome.detail})\n`,
    );

  test(`${FORGED} forged failures from one network do not roll back a healthy canary at the default settings; each report counts once though sent to both servers`, async () => {
    const canary = await store.canaries.start('contact', candidates[0]!, { percent: 50 }, 'integrator');
    await bothServe(canary);
    await realTraffic(8, 0);
    await flush();
    expect((await visitsOf(canary.release.id, canary.startedAt)).visits).toBe(80);
    const before = await visitsOfBoth(canary);
    const done = await attack((release) => (release === canary.release.id ? { failed: true, lcp: 90_000 } : { failed: false, lcp: 200 }));
    const outcome = await judged(canary);
    // release_health keeps every valid visit, each once: the forged ones too, not their replays.
    done.counted = (await visitsOfBoth(canary)) - before;
    print('a healthy canary', done, outcome);
    expect(done.counted).toBe(FORGED);
    expect(outcome.action).toBe('running');
    expect((await store.canaries.running()).contact?.id).toBe(canary.id);
  });

  test(`${FORGED} forged successes for a failing candidate and failures for the active release from one network do not promote it at the default settings`, async () => {
    const canary = await store.canaries.start('contact', candidates[1]!, { percent: 50, promoteAfterVisits: 60 }, 'integrator');
    await bothServe(canary);
    const before = await visitsOfBoth(canary);
    const done = await attack((release) => (release === canary.release.id ? { failed: false, lcp: 200 } : { failed: true, lcp: 90_000 }));
    // The outsider's reports first, the real visitors after: the judge sees the worst case for it at each round.
    await flush();
    const early = await judged(canary);
    expect(early.action).not.toBe('promote');
    done.counted = (await visitsOfBoth(canary)) - before;
    await realTraffic(8, 4);
    const outcome = await judged(canary);
    print('a failing canary', done, outcome);
    expect(done.counted).toBe(FORGED);
    expect(outcome.action).not.toBe('promote');
    // Half its real visits fail: the judge rolls it back, as it should.
    expect(outcome.action).toBe('auto-rollback');
    expect((await store.releases.served()).active.contact?.id).toBe(active);
  });

  test('a canary started again in the same hour, of the same release, starts from zero', async () => {
    // The premise is one hour for both canaries: their starts stamped from the top of this hour (no wait for the wall clock's hour to turn).
    pinned = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const first = await store.canaries.start('contact', candidates[2]!, { percent: 50, minNetworks: 1, minVisits: 10 }, 'integrator');
    await bothServe(first);
    // Failing visits, below minVisits: then an operator aborts.
    for (const network of REAL_NETWORKS.slice(0, 3)) for (let visit = 0; visit < 3; visit++) await realVisit(network, CANDIDATE_BUCKET, true);
    await flush();
    await store.canaries.abort('contact', 'integrator', 'abort');
    await bothServe(undefined);
    const again = await store.canaries.start('contact', candidates[2]!, { percent: 50, minNetworks: 1, minVisits: 10 }, 'integrator');
    await bothServe(again);
    expect(new Date(again.startedAt).getUTCHours()).toBe(new Date(first.startedAt).getUTCHours());
    // One failing visit more: nine before it are in the same hour's health, none in the new canary's counts.
    await realVisit(REAL_NETWORKS[0]!, CANDIDATE_BUCKET, true);
    const outcome = await judged(again);
    expect(outcome).toMatchObject({ action: 'running', detail: `${again.release.id} has 1 visit of the 10 it needs to be judged` });
    expect((await visitsOf(again.release.id, again.startedAt)).visits).toBe(10);
  });
});
