import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BEACON_PATH, type VisitReport } from '@portico/contract/beacon';
import { APP_DIRS, APP_NAMES } from '@portico/contract/sections';
import { EMBEDDED_DATABASE_FOLDER } from '@portico/platform/data-folder';
import { openEmbeddedDatabase } from '@portico/platform/database';
import { seedDataFolder, linesLogger } from '@portico/platform/testing';
import { HealthStore, JUDGE_ACTOR, judgeCanary, ReleaseStore, startCanaryJudge, type Canary } from '@portico/releases';
import { eventually } from '@portico/testing/eventually';
import { beaconEndpoint } from '../beacon/beacon-endpoint';
import { releaseFeed } from '../control-plane';
import { startPortico } from '../portico-server';

// The two canary attacks of issue 45, run by canary-networks.test.ts inside
// a network namespace made for it (`unshare --net`), whose loopback it gives
// the addresses below (never the machine's own interfaces: it refuses to
// run where there is any interface but the loopback):
// the real page server (every cap at its default), the real beacon, the real
// judge, on the embedded database, and clients on real sockets bound to
// those source addresses. It prints one line, `RESULT <json>`: what the
// judge did in each attack, and the networks it read.

/** Ten real visitors' networks: ten IPv4 /24s (all of 127/8 is this loopback's). */
const REAL = Array.from({ length: 10 }, (_, index) => `127.0.${10 + index}.1`);
/** The attacker's /64s, all of one ULA /48 (fd00::/48): two for the first attack, eight others for the second. */
const ROLLBACK_ATTACK = [1, 2].map((subnet) => `fd00:0:0:${subnet}::1`);
const PROMOTE_ATTACK = [11, 12, 13, 14, 15, 16, 17, 18].map((subnet) => `fd00:0:0:${subnet}::1`);
/** Cohort buckets: below the canary's 50 % the candidate, at or above it the active release. */
const CANDIDATE_BUCKET = 3;
const ACTIVE_BUCKET = 70;

export interface AttackOutcome {
  /** The judge's audit entry's action, or `running` (still running: the judge's reason in `detail`). */
  action: string;
  detail: string;
  networks: { candidate: number; active: number };
}

function fakeBuild(root: string): void {
  for (const app of APP_NAMES) {
    const dist = path.join(root, APP_DIRS[app], 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portico</title>');
    writeFileSync(path.join(dist, 'mf-manifest.json'), '{}');
  }
}

/** One request on a connection of its own from `from`: status, headers, body. */
function send(
  port: number,
  from: string,
  options: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const ipv6 = from.includes(':');
  return new Promise((resolve, reject) => {
    const req = request(
      // To the server's address of the client's family; the Host is the page's either way.
      { host: ipv6 ? from : '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers, localAddress: from, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Brings this namespace's loopback up with the attacker's addresses; refuses where other interfaces exist (not a namespace of the test's own). */
function holdAddresses(): void {
  const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).trim().split('\n');
  if (links.length !== 1 || !/^\d+: lo:/.test(links[0]!))
    throw new Error(`not in a network namespace of its own (interfaces: ${links.length}): run under unshare --net`);
  execFileSync('ip', ['link', 'set', 'lo', 'up']);
  // nodad: usable at once, no duplicate detection on a loopback.
  for (const address of [...ROLLBACK_ATTACK, ...PROMOTE_ATTACK]) execFileSync('ip', ['-6', 'addr', 'add', `${address}/128`, 'dev', 'lo', 'nodad']);
}

async function main(): Promise<void> {
  holdAddresses();
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-canary-networks-'));
  const log: string[] = [];
  seedDataFolder(folder);
  const db = await openEmbeddedDatabase(path.join(folder, EMBEDDED_DATABASE_FOLDER));
  const store = await ReleaseStore.open(db);
  const health = await HealthStore.open(db);
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
  const active = await publish();
  await store.history.activate('contact', active, 'integrator');
  const healthy = await publish();
  const failing = await publish();

  // Every cap at its default: only the flush is the test's to call.
  const beacon = beaconEndpoint({
    health,
    secret: () => store.previewSecret(),
    log: linesLogger((line) => log.push(line)),
    limits: { flushMs: 3_600_000 },
  });
  mkdirSync(path.join(folder, 'build'));
  fakeBuild(path.join(folder, 'build'));
  const server = await startPortico({
    rootDir: path.join(folder, 'build'),
    basePort: 0,
    host: '::',
    ssr: false,
    beacon,
    releases: releaseFeed(Promise.resolve(store)),
    log: linesLogger((line) => log.push(line)),
  });
  const judge = startCanaryJudge({
    store,
    counts: (canary, activeId) => store.canaries.counts(canary, activeId),
    everyMs: 3_600_000,
    log: linesLogger((line) => log.push(line)),
  });
  const port = server.ports[0]!;
  const origin = `http://127.0.0.1:${port}`;

  /** A visit from `from`: the page with its visit id (Server-Timing), then its report. */
  const visit = async (from: string, bucket: number, release: string, failed: boolean) => {
    const page = await send(port, from, { method: 'GET', path: '/', headers: { Host: `127.0.0.1:${port}`, Cookie: `portico_cohort=${bucket}` } });
    const id = /^visit;desc="([^"]+)"$/.exec(String(page.headers['server-timing'] ?? ''))?.[1];
    if (page.status !== 200 || !id) throw new Error(`the page from ${from} came with ${page.status} and no visit id; the log:\n${log.join('\n')}`);
    const report: VisitReport = {
      v: 2,
      visit: id,
      sections: { contact: failed ? { release, arrival: 'failed', failure: 'render' } : { release, arrival: 'ssr' } },
      vitals: { lcp: 1800, inp: 80 },
    };
    const answer = await send(port, from, {
      method: 'POST',
      path: BEACON_PATH,
      headers: { Host: `127.0.0.1:${port}`, Origin: origin, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(report),
    });
    if (answer.status !== 204) throw new Error(`the report from ${from} was answered ${answer.status}`);
  };

  const start = async (release: string, options: { promoteAfterVisits?: number }) => {
    const canary = await store.canaries.start('contact', release, { percent: 50, ...options }, 'integrator');
    await eventually(() => server.releases().canaries.contact?.id === canary.id, { what: `canary ${canary.id} served`, withinMs: 20_000 });
    return canary;
  };

  /** The judge's round on `canary`: its audit entry, or what it would say now. */
  const judged = async (canary: Canary): Promise<AttackOutcome> => {
    await beacon.flush();
    const counts = await store.canaries.counts(canary, active);
    const networks = { candidate: counts.candidate.networks.length, active: counts.active.networks.length };
    await judge.judgeNow();
    const entry = (await store.audit.list({ sections: ['contact'], limit: 1 }))[0]!;
    if (entry.actor === JUDGE_ACTOR && entry.release === canary.release.id) return { action: entry.action, detail: entry.detail, networks };
    return { action: 'running', detail: judgeCanary(canary, counts, active).reason, networks };
  };

  // (a) A healthy canary: 50 real visits from ten networks to each release, none failing; 2 /64s x 15 forged failures.
  const first = await start(healthy, {});
  for (const from of REAL) {
    for (let count = 0; count < 5; count++) {
      await visit(from, CANDIDATE_BUCKET, healthy, false);
      await visit(from, ACTIVE_BUCKET, active, false);
    }
  }
  for (const from of ROLLBACK_ATTACK) for (let count = 0; count < 15; count++) await visit(from, CANDIDATE_BUCKET, healthy, true);
  const rollback = await judged(first);
  if ((await store.canaries.running()).contact) await store.canaries.abort('contact', 'integrator', 'abort');

  // (b) A failing canary: 20 of its 40 real visits fail (ten networks, 4 each), the active's 40 do not; 8 /64s send 120 successes for it and 80 failures for the active.
  const second = await start(failing, { promoteAfterVisits: 100 });
  for (const from of REAL) {
    for (let count = 0; count < 4; count++) {
      await visit(from, CANDIDATE_BUCKET, failing, count < 2);
      await visit(from, ACTIVE_BUCKET, active, false);
    }
  }
  for (const from of PROMOTE_ATTACK) {
    for (let count = 0; count < 15; count++) await visit(from, CANDIDATE_BUCKET, failing, false);
    for (let count = 0; count < 10; count++) await visit(from, ACTIVE_BUCKET, active, true);
  }
  const promote = await judged(second);
  const served = (await store.releases.served()).active.contact?.id;

  await judge.close();
  await server.close();
  await beacon.close();
  await db.close();
  rmSync(folder, { recursive: true, force: true });
  process.stdout.write(
    `RESULT ${JSON.stringify({ rollback, promote, activeAfter: served === active ? 'active' : served, cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000), overCap: log.filter((line) => line.includes('over the per-network cap')) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
