import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { eventually } from '@portico/testing/eventually';
import { ReleaseStore } from '../../store/release-store';
import { numberedBuilds } from '../../testing/numbered-builds';
import { startServerHeartbeat } from '../server-heartbeat';
import { manualClock } from './manual-clock';

// The heartbeat on a hand-turned clock: a release activated after a beat is
// in the console's list of servers at the next beat, 5 s on, without a real
// wait; a server that stops leaves the list. Checked to fail with the job on
// the system's clock (its start time the machine's, not the test's).

const build = numberedBuilds();
let database: TestDatabase;
let store: ReleaseStore;

beforeAll(async () => {
  database = embeddedTestDatabase();
  store = await ReleaseStore.open(await database.open());
}, 60_000);

afterAll(async () => {
  await store?.db.close();
  database?.cleanUp();
});

test('beats at start and every 5 s with the releases it serves, and leaves the list when it stops', async () => {
  const clock = manualClock(new Date('2030-01-01T00:00:00Z'));
  const heartbeat = startServerHeartbeat({ store, server: { host: 'web-1', port: 8080, pid: 4242 }, clock });
  const listed = await eventually(async () => (await store.servers.list())[0] ?? false);
  expect(listed).toMatchObject({ host: 'web-1', port: 8080, pid: 4242, startedAt: '2030-01-01T00:00:00.000Z', releases: [] });

  const active = (await store.releases.publish(build('contact'))).release.id;
  await store.history.activate('contact', active, 'integrator');
  clock.advance(4999);
  expect((await store.servers.list())[0]?.releases).toEqual([]);
  clock.advance(1);
  await eventually(async () => (await store.servers.list())[0]?.releases.includes(active) ?? false);

  await heartbeat.close();
  expect(await store.servers.list()).toEqual([]);
});
