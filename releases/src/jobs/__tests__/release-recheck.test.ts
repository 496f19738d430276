import { captureLog, embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { eventually } from '@portico/testing/eventually';
import { ReleaseStore } from '../../store/release-store';
import type { StoredRelease } from '../../store/release-rows';
import { numberedBuilds } from '../../testing/numbered-builds';
import { RECHECK_EVERY_MS, startReleaseRecheck, type ReleaseRecheck, type StillServed } from '../release-recheck';
import { manualClock } from './manual-clock';

// The background check of the served releases' files, driven by a
// hand-turned clock: its first round 30 s after start and then every
// 10 minutes happen when the test turns the clock, with no real wait.
// Checked to fail with the job on the system's timers (the clock ignored):
// no round ran, so nothing was ever marked broken.

const build = numberedBuilds();
let database: TestDatabase;
let store: ReleaseStore;
let job: ReleaseRecheck | undefined;

beforeAll(async () => {
  database = embeddedTestDatabase();
  store = await ReleaseStore.open(await database.open());
}, 60_000);

afterEach(async () => {
  await job?.close();
  job = undefined;
});

afterAll(async () => {
  await store?.db.close();
  database?.cleanUp();
});

/** A check answering what the test says of each release, and counting what it was asked. */
function fakeCheck() {
  const problems = new Map<string, string>();
  const asked: string[] = [];
  const stillServed: StillServed = (release: StoredRelease) => {
    asked.push(release.id);
    return Promise.resolve(problems.get(release.id));
  };
  return { stillServed, problems, asked };
}

test('marks the active release broken at the first round, 30 s after start, and clears the mark once its files are whole again', async () => {
  const active = (await store.releases.publish(build('contact'))).release.id;
  await store.history.activate('contact', active, 'integrator');
  const check = fakeCheck();
  check.problems.set(active, 'reachable: the manifest answered 404');
  const clock = manualClock(new Date('2030-01-01T00:00:00Z'));
  const log = captureLog();
  job = startReleaseRecheck({ store, stillServed: check.stillServed, log: log.logger, clock });

  // Not while the server is starting.
  clock.advance(29_999);
  expect(check.asked).toEqual([]);
  clock.advance(1);
  await eventually(async () => (await store.releases.get(active))?.broken?.detail === 'reachable: the manifest answered 404');
  expect(log.lines).toEqual([
    expect.objectContaining({ level: 40, msg: `releases: the active contact release ${active} is broken`, section: 'contact', release: active }),
  ]);

  // The files back: the next round, 10 minutes on, clears the mark.
  check.problems.delete(active);
  clock.advance(RECHECK_EVERY_MS - 1);
  expect(check.asked).toEqual([active]);
  clock.advance(1);
  await eventually(async () => (await store.releases.get(active))?.broken === null);
  expect(check.asked).toEqual([active, active]);
});
