import type { SectionId } from '@portico/contract/sections';
import { serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { ReleaseStore } from '../release-store';
import { TWO_STORE_KINDS, twoStoresOn } from './two-stores';
import type { PublishInput } from '../releases';
import { eventually } from '@portico/testing/eventually';

let builds = 0;
const build = (section: SectionId): PublishInput => ({
  section,
  manifestUrl: `https://cdn.example/${section}/${++builds}/mf-manifest.json`,
  integrity: `sha384-${builds}`,
  version: '1.0.0',
  buildId: `build-${builds}`,
  createdBy: 'ci',
  checks: [],
});

describe.each(TWO_STORE_KINDS)('two release stores on one %s database', (kind) => {
  const stores = twoStoresOn(kind);

  it('hears an activation on the other one within 2 s, through the notification', async () => {
    const heard: SectionId[] = [];
    // A poll too slow to be what delivers it.
    const watching = await stores.second.watch((section) => heard.push(section), { pollMs: 60_000 });
    try {
      const { release } = await stores.first.releases.publish(build('contact'));
      await stores.first.history.activate('contact', release.id, 'integrator');
      const activated = Date.now();
      await eventually(() => heard.includes('contact'), { what: 'the notification', withinMs: 2_000 });
      const delay = Date.now() - activated;
      process.stderr.write(`${kind}: activation heard by the other store after ${delay} ms\n`);
      expect((await stores.second.releases.active()).contact?.id).toBe(release.id);
    } finally {
      await watching.close();
    }
  });

  it('converges through the poll when the notification is lost, and listens again', async () => {
    const heard: SectionId[] = [];
    const watching = await stores.second.watch((section) => heard.push(section), { pollMs: 100 });
    try {
      if (kind === 'server') {
        // The listening connection dies with no one told: the poll must notice, and catch up.
        await stores.first.db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN portico_releases'");
      }
      // A change with no notification at all: only the poll can see it.
      await stores.first.db.query("UPDATE release_sections SET generation = generation + 1 WHERE section = 'contact'");
      await eventually(() => heard.includes('contact'), { what: 'the poll', withinMs: 3_000 });
      if (kind === 'server') {
        await eventually(
          async () => {
            const [row] = await stores.first.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN portico_releases'");
            return row!.n === 1;
          },
          { what: 'listening again', withinMs: 3_000 },
        );
      }
    } finally {
      await watching.close();
    }
  });

  it('serialises simultaneous activations of one section: each applied in turn, each audited, the last one active for both', async () => {
    const releases = await Promise.all(Array.from({ length: 8 }, () => stores.first.releases.publish(build('home'))));
    const ids = releases.map(({ release }) => release.id);
    const results = await Promise.all(
      ids.map((id, index) => (index % 2 === 0 ? stores.first : stores.second).history.activate('home', id, `server-${index % 2}`)),
    );
    expect(results.every((result) => ids.includes(result.active!.id))).toBe(true);

    const log = (await stores.first.audit.list({ sections: ['home'], limit: 100 })).filter((entry) => entry.action === 'activate').reverse();
    expect(log.map((entry) => entry.release).sort()).toEqual([...ids].sort());
    // In turn: each activation saw the one before it as active.
    expect(log.map((entry) => entry.from)).toEqual([null, ...log.slice(0, -1).map((entry) => entry.release)]);
    const winner = log.at(-1)!.release;
    expect((await stores.first.releases.active()).home?.id).toBe(winner);
    expect((await stores.second.releases.active()).home?.id).toBe(winner);
    // The history is the order they ran in: a rollback goes back to the one applied before the winner.
    expect((await stores.second.history.rollback('home', undefined, 'integrator')).active?.id).toBe(log.at(-2)!.release);
  });
});

const describeOnServer = serverTestsRun() ? describe : describe.skip;

describeOnServer('two release stores on a PostgreSQL server that restarts', () => {
  let database: TestDatabase;
  let first: ReleaseStore;
  let second: ReleaseStore;

  beforeAll(async () => {
    database = serverTestDatabase();
    first = await ReleaseStore.open(await database.open());
    second = await ReleaseStore.open(await database.open());
  }, 60_000);

  afterAll(async () => {
    await first?.db.close();
    await second?.db.close();
    database?.cleanUp();
  });

  /** How many connections LISTEN on the releases' channel now (false while the server cannot be asked). */
  const listeners = async () => {
    try {
      const [row] = await first.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN portico_releases'");
      return row!.n;
    } catch {
      return -1;
    }
  };

  it('listens again within 1 s of the database answering, and hears an activation made as it answers within 2 s', async () => {
    const heard: SectionId[] = [];
    // A poll too slow to be what brings it back.
    const watching = await second.watch((section) => heard.push(section), { pollMs: 60_000 });
    try {
      await eventually(async () => (await listeners()) === 1, { what: 'listening', withinMs: 2_000 });
      const { release } = await first.releases.publish(build('about'));
      // pg_ctl blocks this process while it runs: the stores see the server gone (as a server's would at once) before it starts again.
      database.server!.stop();
      await eventually(async () => (await listeners()) === -1, { what: 'the database gone', withinMs: 5_000 });
      // pg_ctl -w: it returns once the server accepts connections.
      database.server!.start();
      const answered = Date.now();
      const activated = first.history.activate('about', release.id, 'integrator');
      await eventually(async () => (await listeners()) === 1, { what: 'listening again', withinMs: 5_000 });
      const relistened = Date.now() - answered;
      await activated;
      await eventually(() => heard.includes('about'), { what: 'the activation heard', withinMs: 5_000 });
      // The activation came after the database answered: heard within 2 s of it, as every server must.
      const heardAfter = Date.now() - answered;
      process.stderr.write(
        `after a restart: listening again ${relistened} ms after the database answered; the activation made then heard after ${heardAfter} ms\n`,
      );
      expect(relistened).toBeLessThan(1000);
      expect(heardAfter).toBeLessThan(2000);
    } finally {
      await watching.close();
    }
  }, 60_000);
});
