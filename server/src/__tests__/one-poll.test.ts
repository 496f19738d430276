import type { Database } from '@portico/platform/database';
import { silentLogger } from '@portico/platform/logging';
import { eventually } from '@portico/testing/eventually';
import { releaseFeed } from '../control-plane';
import { ServedReleases } from '../served-releases';
import { ReleaseStore } from '@portico/releases';
import { releaseStorePerFile } from './release-store-per-file';
import { numberedBuilds } from '@portico/releases/testing';

// One catch-up poll (issue 47, item 4): the store watch's read of the
// sections' generations is what brings a change whose notification was lost
// to what the server serves; ServedReleases has no timer of its own and reads
// the store whole only on a change. Checked failing without the watch's
// poll reaching ServedReleases' feed (no pollMs setting: its poll was 5 s
// away, past this test's bound).

const held = releaseStorePerFile();

test('a server serves an activation whose notification never came, from the watch poll, reading the store whole only for it', async () => {
  const { store } = held;
  // The server's store on the same database, its notifications never arriving; its polls of the generations counted.
  let polls = 0;
  const deaf: Database = {
    ...store.db,
    query: <Row>(text: string, params?: readonly unknown[]) => {
      if (text.includes('generation::text')) polls++;
      return store.db.query<Row>(text, params);
    },
    transaction: store.db.transaction.bind(store.db),
    listen: () => Promise.reject(new Error('the listening connection is gone')),
  };
  const feed = releaseFeed(Promise.resolve(await ReleaseStore.open(deaf)), { health: false, pollMs: 50 });
  let reads = 0;
  const served = new ServedReleases({
    feed: { ...feed, read: () => (reads++, feed.read()) },
    warm: () => Promise.resolve(),
    log: silentLogger,
  });
  await served.start();
  try {
    // Started (a read, and one more as the watch opens): then the polls run and nothing is read whole.
    await eventually(() => reads >= 2 && polls >= 2, { what: 'the start', withinMs: 10_000 });
    const before = reads;
    const pollsBefore = polls;
    await eventually(() => polls >= pollsBefore + 5, { what: 'five polls', withinMs: 10_000 });
    expect(reads).toBe(before);

    const { release } = await store.releases.publish(numberedBuilds()('contact'));
    await store.history.activate('contact', release.id, 'integrator');
    await eventually(() => served.current().active.contact?.id === release.id, { what: 'the activation served', withinMs: 10_000 });
    // Read whole for the change (once; twice if a read was under way as it committed).
    expect(reads - before).toBeGreaterThanOrEqual(1);
    expect(reads - before).toBeLessThanOrEqual(2);
  } finally {
    await served.close();
  }
});
