import { captureLog, embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { eventually } from '@portico/testing/eventually';
import { HealthStore } from '../../health/health-store';
import { ReleaseStore } from '../../store/release-store';
import { startHealthPrune, type HealthPrune } from '../health-prune';
import { manualClock } from './manual-clock';

// The health retention, on a hand-turned clock years from now: the hours
// it deletes are counted back from the clock's time, not the machine's,
// and its first round comes a minute after start without a real wait.
// Checked to fail with the deletes given no time (the machine's then): the
// hours of 2031 were younger than 30 days of now's, so none went.

let database: TestDatabase;
let store: ReleaseStore;
let health: HealthStore;
let job: HealthPrune | undefined;

beforeAll(async () => {
  database = embeddedTestDatabase();
  const db = await database.open();
  store = await ReleaseStore.open(db);
  health = await HealthStore.open(db);
}, 60_000);

afterAll(async () => {
  await job?.close();
  await store?.db.close();
  database?.cleanUp();
});

const hoursKept = () =>
  health.db.query<{ hour: Date }>('SELECT hour FROM release_health ORDER BY hour').then((rows) => rows.map((row) => new Date(row.hour).toISOString()));

test('deletes the hours older than the retention, counted from the clock’s time, a minute after start', async () => {
  const now = new Date('2031-06-01T12:00:00Z');
  const count = { section: 'contact' as const, releaseId: 'contact-1', key: 'visits', count: 1 };
  await health.record([
    { ...count, hour: new Date('2031-04-01T00:00:00Z') },
    { ...count, hour: new Date('2031-05-31T00:00:00Z') },
  ]);
  const clock = manualClock(now);
  const log = captureLog();
  job = startHealthPrune({ health, canaries: store.canaries, retentionDays: 30, log: log.logger, clock });

  clock.advance(59_999);
  expect(await hoursKept()).toHaveLength(2);
  clock.advance(1);
  await eventually(async () => (await hoursKept()).length === 1);
  expect(await hoursKept()).toEqual(['2031-05-31T00:00:00.000Z']);
  expect(log.lines).toEqual([expect.objectContaining({ level: 30, msg: 'health: deleted 1 row(s) of hours older than 30 days', deleted: 1 })]);
});
