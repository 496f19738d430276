import { readSetting } from '@portico/platform/settings';
import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { HealthStore, hourOf, type HealthCount } from '../health-store';
import { bucketOf } from '../vital-histogram';

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);

const NOW = new Date('2026-05-01T12:34:56Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000);

/** `count` visits of contact's `release` at `at`, `failed` of them failed with a render error, each with `lcp`. */
function visits(release: string, at: Date, count: number, options: { failed?: number; lcp?: number[]; cls?: number } = {}): HealthCount[] {
  const row = (key: string, n: number): HealthCount => ({ hour: at, section: 'contact', releaseId: release, key, count: n });
  const failed = options.failed ?? 0;
  return [
    row('visits', count),
    ...(count > failed ? [row('arrival:ssr', count - failed)] : []),
    ...(failed > 0 ? [row('arrival:failed', failed), row('failed:render', failed)] : []),
    ...(options.lcp ?? []).map((lcp) => row(`lcp:${bucketOf('lcp', lcp)}`, 1)),
    ...(options.cls === undefined ? [] : [row(`cls:${bucketOf('cls', options.cls)}`, count)]),
  ];
}

describe.each(KINDS)('the health store on the %s database', (kind) => {
  let database: TestDatabase;
  let store: HealthStore;

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    store = await HealthStore.open(await database.open());
    // Opening again (a second server) finds the schema made.
    await HealthStore.open(store.db);
  }, 60_000);
  afterAll(async () => {
    await store?.db.close();
    database?.cleanUp();
  });
  beforeEach(() => store.db.exec('TRUNCATE release_health'));

  it('adds batches up per hour, section, release and key, and reads a release health over a window', async () => {
    await store.record([
      ...visits('contact-1', hoursAgo(1), 60, { failed: 3, lcp: [1000, 2000, 3000, 4000], cls: 0.1 }),
      ...visits('contact-2', hoursAgo(1), 10),
    ]);
    // The same keys again, in another minute of the same hour, and the same key twice in one batch.
    const oneVisit = visits('contact-1', hoursAgo(1), 1).slice(0, 1);
    await store.record([...visits('contact-1', new Date(hourOf(hoursAgo(1)).getTime() + 59 * 60_000), 40, { failed: 2 }), ...oneVisit, ...oneVisit]);
    const health = await store.health('contact', ['contact-1', 'contact-3'], hoursAgo(24));
    expect(health['contact-1']).toEqual({
      visits: 102,
      failures: 5,
      failureRate: 5 / 102,
      failuresByClass: { render: 5 },
      lcpP75: expect.any(Number),
      inpP75: null,
      clsP75: expect.any(Number),
    });
    // Four LCPs of 1, 2, 3 and 4 s: p75 is the third; every visit's CLS was 0.1. Within a bucket's 5 %.
    expect(Math.abs(health['contact-1']!.lcpP75! - 3000)).toBeLessThanOrEqual(150);
    expect(Math.abs(health['contact-1']!.clsP75! - 0.1)).toBeLessThanOrEqual(0.005);
    // Asked for, never reported: zeros, not missing.
    expect(health['contact-3']).toEqual({ visits: 0, failures: 0, failureRate: 0, failuresByClass: {}, lcpP75: null, inpP75: null, clsP75: null });
    // Another release and another section are not mixed in.
    expect(Object.keys(health)).toEqual(['contact-1', 'contact-3']);
    expect(await store.health('home', ['contact-1'], hoursAgo(24))).toEqual({ 'contact-1': expect.objectContaining({ visits: 0 }) });
    const [row] = await store.db.query<{ n: number }>("SELECT count(*)::integer AS n FROM release_health WHERE release_id = 'contact-1' AND key = 'visits'");
    expect(row!.n).toBe(1);
  });

  it('reads the window by whole hours: the hour holding `since` counts, the ones before do not', async () => {
    await store.record([
      ...visits('contact-1', hoursAgo(30), 500, { failed: 500 }),
      ...visits('contact-1', hoursAgo(5), 20),
      ...visits('contact-1', hoursAgo(2), 30, { failed: 3 }),
    ]);
    expect((await store.health('contact', ['contact-1'], hoursAgo(24)))['contact-1']).toMatchObject({ visits: 50, failures: 3, failureRate: 0.06 });
    // `since` in the middle of the hour of the 30 visits: that hour counts whole.
    const since = new Date(hourOf(hoursAgo(2)).getTime() + 50 * 60_000);
    expect((await store.health('contact', ['contact-1'], since))['contact-1']).toMatchObject({ visits: 30 });
  });

  it('p75 from the stored buckets is within 5 % of the exact value; a vital no visit reported has none', async () => {
    // 200 visits whose LCP rises 20 ms at a time from 1 s: p75 is the 150th (3980 ms).
    const lcps = Array.from({ length: 200 }, (_, index) => 1000 + 20 * index);
    await store.record(visits('contact-7', hoursAgo(3), 200, { lcp: lcps }));
    const health = (await store.health('contact', ['contact-7'], hoursAgo(24)))['contact-7']!;
    expect(Math.abs(health.lcpP75! - 3980)).toBeLessThanOrEqual(3980 * 0.05);
    expect(health.inpP75).toBeNull();
  });

  it('retention deletes the hours older than the kept days, and only those', async () => {
    const kept = 30;
    await store.record([
      ...visits('contact-1', hoursAgo(kept * 24 + 2), 7),
      ...visits('contact-1', hoursAgo(kept * 24 + 1), 5),
      ...visits('contact-1', hoursAgo(kept * 24 - 1), 3),
      ...visits('contact-1', hoursAgo(1), 1),
    ]);
    expect(await store.deleteOlderThan(kept, NOW)).toBe(4);
    const left = await store.db.query<{ hour: Date | string; count: string }>(
      "SELECT hour, count::text AS count FROM release_health WHERE key = 'visits' ORDER BY hour",
    );
    expect(left.map((row) => [new Date(row.hour).toISOString(), row.count])).toEqual([
      [hourOf(hoursAgo(kept * 24 - 1)).toISOString(), '3'],
      [hourOf(hoursAgo(1)).toISOString(), '1'],
    ]);
    expect(await store.deleteOlderThan(kept, NOW)).toBe(0);
  });

  it('refuses counts that are not positive whole numbers, storing nothing of the batch', async () => {
    await expect(
      store.record([...visits('contact-1', hoursAgo(1), 3), { hour: NOW, section: 'contact', releaseId: 'contact-1', key: 'visits', count: 0.5 }]),
    ).rejects.toThrow(/positive whole number/);
    expect(await store.db.query('SELECT * FROM release_health')).toEqual([]);
  });
});

const healthRetentionDays = (env: Record<string, string>) => readSetting(env, 'PORTICO_HEALTH_RETENTION_DAYS');

test('PORTICO_HEALTH_RETENTION_DAYS: 30 by default, 1 to 3650, anything else refused naming the variable', () => {
  expect(healthRetentionDays({})).toBe(30);
  expect(healthRetentionDays({ PORTICO_HEALTH_RETENTION_DAYS: ' 7 ' })).toBe(7);
  expect(healthRetentionDays({ PORTICO_HEALTH_RETENTION_DAYS: '3650' })).toBe(3650);
  for (const bad of ['0', '3651', '1.5', '-3', 'thirty', '1e3']) {
    expect(() => healthRetentionDays({ PORTICO_HEALTH_RETENTION_DAYS: bad })).toThrow(
      `PORTICO_HEALTH_RETENTION_DAYS must be a whole number of days from 1 to 3650, got "${bad}"`,
    );
  }
});
