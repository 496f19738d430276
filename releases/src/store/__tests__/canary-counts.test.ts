import { randomBytes } from 'node:crypto';
import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { canaryNetworkKey, networkHash } from '../../canary/canary-counts';
import { HealthStore, hourOf, type TakenReport } from '../../health/health-store';
import { ReleaseStore } from '../release-store';
import { numberedBuilds } from '../../testing/numbered-builds';

// What the judge reads, kept as the beacon and the servers write it: each
// visit id counted once on every server together, per-network counts under
// the canary's key for that canary alone (gone with it), and the servers' own
// signals. The judge's decision on them is judge-canary.test.ts's.

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);

const build = numberedBuilds();

describe.each(KINDS)('what the canary judge reads, on the %s database', (kind) => {
  let database: TestDatabase;
  let store: ReleaseStore;
  let health: HealthStore;
  /** A second server's stores: on a server its own pool; embedded, the one database object a process has. */
  let otherHealth: HealthStore;
  let secret: Buffer;
  /**
   * The store's clock, which stamps a canary's start, and the hour of every report: the top of the
   * hour the test began in, a second further at each start, so every canary of a test starts in one
   * hour whatever the wall clock does.
   */
  let clock: number;

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    const db = await database.open();
    store = await ReleaseStore.open(db, { now: () => (clock += 1000) });
    health = await HealthStore.open(db);
    otherHealth = await HealthStore.open(kind === 'embedded' ? db : await database.open());
    secret = await store.previewSecret();
  }, 60_000);

  afterAll(async () => {
    await store?.db.close();
    if (otherHealth?.db !== store?.db) await otherHealth?.db.close();
    database?.cleanUp();
  });

  beforeEach(async () => {
    clock = hourOf(Date.now()).getTime();
    await store.db.exec(
      'TRUNCATE releases, release_sections, release_activations, release_audit, release_canaries, canary_bounded, release_health, visit_ids, release_set_aside CASCADE',
    );
  });

  /** Contact with `old` active and `next` in a canary. */
  async function canary() {
    const old = (await store.releases.publish(build('contact'))).release.id;
    await store.history.activate('contact', old, 'integrator');
    const next = (await store.releases.publish(build('contact'))).release.id;
    const started = await store.canaries.start('contact', next, { percent: 50 }, 'integrator');
    return { old, next, started };
  }

  /** A report the beacon took for `release`, from `network`, counted for canary `canaryId` when given. */
  const taken = (
    release: string,
    network: string,
    options: { failed?: boolean; canary?: { id: number; startedAt: string }; visit?: string } = {},
  ): TakenReport => {
    const hashed = options.canary ? networkHash(canaryNetworkKey(secret, options.canary), network) : undefined;
    const keys = ['visits', ...(options.failed ? ['failures'] : [])];
    return {
      visit: options.visit ?? randomBytes(16).toString('hex'),
      expiresAt: new Date(Date.now() + 3_600_000),
      hour: hourOf(clock),
      counts: [
        { section: 'contact', releaseId: release, key: 'visits' },
        { section: 'contact', releaseId: release, key: options.failed ? 'arrival:failed' : 'arrival:ssr' },
      ],
      canary: options.canary && hashed ? keys.map((key) => ({ canaryId: options.canary!.id, network: hashed, releaseId: release, key })) : [],
    };
  };
  const visitsOf = async (release: string) => (await health.health('contact', [release], new Date(Date.now() - 3_600_000)))[release]!.visits;

  it('counts each visit id once, on every server together, at the same moment and within one batch', async () => {
    const { next } = await canary();
    const reports = Array.from({ length: 20 }, () => taken(next, 'n1'));
    // Every report to both servers at once, and each twice in the first one's batch.
    const counted = await Promise.all([health.recordReports([...reports, ...reports]), otherHealth.recordReports(reports)]);
    expect(counted[0] + counted[1]).toBe(20);
    expect(await visitsOf(next)).toBe(20);
    expect(await health.recordReports(reports)).toBe(0);
    expect(await visitsOf(next)).toBe(20);
  });

  it('spends no id of a batch the database refuses: the same reports count when sent again', async () => {
    const { next } = await canary();
    const good = taken(next, 'n1');
    const broken = { ...taken(next, 'n1'), counts: [{ section: 'contact' as const, releaseId: next, key: null as unknown as string }] };
    await expect(health.recordReports([good, broken])).rejects.toThrow();
    expect(await health.recordReports([good])).toBe(1);
  });

  it("keeps the per-network counts of the canary's two releases for it alone, and reads them per network under its key", async () => {
    const { old, next, started } = await canary();
    const key = { id: started.id, startedAt: started.startedAt };
    await health.recordReports([
      taken(next, '203.0.113.7', { canary: key, failed: true }),
      taken(next, '203.0.113.7', { canary: key }),
      taken(next, '198.51.100.9', { canary: key }),
      taken(old, '198.51.100.9', { canary: key }),
    ]);
    const counts = await store.canaries.counts(started, old);
    expect(counts.candidate.networks.map(({ visits, failures }) => [visits, failures]).sort()).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(counts.active.networks.map(({ visits }) => visits)).toEqual([1]);
    // The same network is one network under one canary's key, and another hash under the next canary's.
    expect(counts.candidate.networks.map((network) => network.network)).toContain(counts.active.networks[0]!.network);
    expect(networkHash(canaryNetworkKey(secret, { id: started.id + 1, startedAt: started.startedAt }), '198.51.100.9').toString('hex')).not.toBe(
      counts.active.networks[0]!.network,
    );
  });

  it('starts a canary from nothing: per-network counts go with the canary, what its judge left out stays (no network), and one started again in the same hour, of the same release, reads none of them', async () => {
    // The premise is one hour for both canaries and the reports: the store's clock (no wait for the wall clock's hour to turn).
    const { old, next, started } = await canary();
    const first = { id: started.id, startedAt: started.startedAt };
    await health.recordReports(Array.from({ length: 30 }, (_, index) => taken(next, `net-${index % 6}`, { canary: first, failed: true })));
    // And one network over its share (20 %): 10 more of net-0's.
    await health.recordReports(Array.from({ length: 10 }, () => taken(next, 'net-0', { canary: first, failed: true })));
    expect((await store.canaries.counts(started, old)).candidate.networks).toHaveLength(6);

    await store.canaries.abort('contact', 'integrator', 'abort');
    expect(await store.db.query('SELECT 1 FROM canary_network_counts')).toEqual([]);
    // net-0's 15 visits count as the cap, 6.25 (20 % of 31.25): 8.75 visits and failures left out, and not a network in the table.
    const columns = await store.db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'canary_bounded' ORDER BY ordinal_position",
    );
    expect(columns.map((column) => column.column_name)).toEqual(['canary_id', 'release_id', 'hour', 'key', 'count']);
    const bounded = await store.db.query<{ key: string; count: number }>(
      "SELECT key, count FROM canary_bounded WHERE canary_id = $1 AND key IN ('visits', 'arrival:failed') ORDER BY key",
      [started.id],
    );
    expect(bounded.map(({ key, count }) => [key, Math.round(count * 1e6) / 1e6])).toEqual([
      ['arrival:failed', -8.75],
      ['visits', -8.75],
    ]);
    const again = await store.canaries.start('contact', next, { percent: 50 }, 'integrator');
    expect(again.id).not.toBe(started.id);
    expect(hourOf(new Date(again.startedAt)).getTime()).toBe(hourOf(new Date(started.startedAt)).getTime());
    expect(await store.canaries.counts(again, old)).toEqual({
      active: { networks: [], signals: { renderFailures: 0, setAside: 0, contactErrors: 0, broken: null } },
      candidate: { networks: [], signals: { renderFailures: 0, setAside: 0, contactErrors: 0, broken: null } },
    });
    // Reports of pages served under the first canary, arriving now, count for none.
    await health.recordReports([taken(next, 'net-0', { canary: first, failed: true })]);
    expect((await store.canaries.counts(again, old)).candidate.networks).toEqual([]);
    // release_health keeps every valid visit; the health read takes off what the first canary's judge left out.
    expect((await health.health('contact', [next], new Date(Date.now() - 3_600_000)))[next]).toMatchObject({ visits: 32.25, raw: { visits: 41 } });
  });

  it('an activation overtaking the canary ends it the same way: what its judge left out is written before its per-network rows go', async () => {
    const { next, started } = await canary();
    const first = { id: started.id, startedAt: started.startedAt };
    await health.recordReports(Array.from({ length: 25 }, (_, index) => taken(next, `net-${index % 5}`, { canary: first })));
    await health.recordReports(Array.from({ length: 20 }, () => taken(next, 'forger', { canary: first, failed: true })));
    const other = (await store.releases.publish(build('contact'))).release.id;
    await store.history.activate('contact', other, 'integrator');
    expect(await store.canaries.running()).toEqual({});
    expect(await store.db.query('SELECT 1 FROM canary_network_counts')).toEqual([]);
    // The forger's 20 count as 6.25 (20 % of 31.25).
    expect((await health.health('contact', [next], new Date(Date.now() - 3_600_000)))[next]).toMatchObject({
      visits: 31.25,
      failures: 6.25,
      raw: { visits: 45, failures: 20 },
    });
  });

  it('counts what a server saw for the canary’s releases only; marks and audits an active build set aside once, and lifts it when it runs again', async () => {
    const { old, next, started } = await canary();
    for (const kind of ['render-failed', 'render-failed', 'contact-5xx', 'set-aside'] as const)
      await store.releases.recordSignal({ section: 'contact', releaseId: next, kind, detail: 'seen' });
    await store.releases.recordSignal({ section: 'contact', releaseId: old, kind: 'render-failed', detail: 'seen' });
    // Another release of the section is neither of the canary's two.
    const other = (await store.releases.publish(build('contact'))).release.id;
    await store.releases.recordSignal({ section: 'contact', releaseId: other, kind: 'render-failed', detail: 'seen' });
    const counts = await store.canaries.counts(started, old);
    expect(counts.candidate.signals).toEqual({ renderFailures: 2, setAside: 1, contactErrors: 1, broken: null });
    expect(counts.active.signals).toEqual({ renderFailures: 1, setAside: 0, contactErrors: 0, broken: null });
    // The candidate set aside is the judge's to act on; no mark on it.
    expect((await store.releases.sectionStates('contact')).contact!.candidate).not.toHaveProperty('setAside');

    for (let server = 0; server < 2; server++)
      await store.releases.recordSignal({
        section: 'contact',
        releaseId: old,
        kind: 'set-aside',
        detail: "the contact section's worker: its worker ended by SIGKILL, 3 times in a row",
      });
    const state = (await store.releases.sectionStates('contact')).contact!;
    expect(state.active).toMatchObject({ id: old, setAside: { at: expect.any(String), detail: expect.stringContaining('3 times in a row') } });
    const audited = (await store.audit.list({ sections: ['contact'] })).filter((entry) => entry.action === 'set-aside');
    expect(audited).toEqual([
      expect.objectContaining({
        actor: 'server',
        release: old,
        detail: expect.stringMatching(/^the active release's node build is rendered in the browser only: /),
      }),
    ]);

    await store.releases.recordSignal({ section: 'contact', releaseId: old, kind: 'running-again', detail: 'its worker runs it again' });
    expect((await store.releases.sectionStates('contact')).contact!.active).not.toHaveProperty('setAside');
    expect((await store.audit.list({ sections: ['contact'], limit: 1 }))[0]).toMatchObject({
      action: 'set-aside',
      release: old,
      detail: 'rendered on the server again: its worker runs it again',
    });
  });

  it('forgets expired visit ids and old per-network hours', async () => {
    const { next, started } = await canary();
    const old = {
      ...taken(next, 'n1', { canary: { id: started.id, startedAt: started.startedAt } }),
      expiresAt: new Date(Date.now() - 1000),
      hour: hourOf(Date.now() - 40 * 86_400_000),
    };
    await health.recordReports([old, taken(next, 'n2')]);
    expect(await health.deleteExpiredVisits()).toBe(1);
    expect(await store.canaries.deleteCountsOlderThan(30)).toBeGreaterThan(0);
    expect(await store.db.query('SELECT 1 FROM canary_network_counts')).toEqual([]);
    // What an ended canary's judge left out goes with the reports' hours too.
    await store.db.query("INSERT INTO canary_bounded VALUES ($1, $2, $3, 'visits', -1)", [
      started.id,
      next,
      hourOf(Date.now() - 40 * 86_400_000).toISOString(),
    ]);
    expect(await store.canaries.deleteCountsOlderThan(30)).toBe(1);
    expect(await store.db.query('SELECT 1 FROM canary_bounded')).toEqual([]);
  });
});
