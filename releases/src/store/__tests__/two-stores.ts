import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { ReleaseStore } from '../release-store';

/** The databases two servers share, where they can run here: embedded always, a PostgreSQL server when its tests run. */
export const TWO_STORE_KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);

export interface TwoStores {
  first: ReleaseStore;
  second: ReleaseStore;
}

/**
 * Two release stores as two servers have them, opened in the describe's
 * beforeAll and closed in its afterAll: on a server, two pools; embedded,
 * one database object in one process (one process per data folder). Read
 * its fields inside the tests.
 */
export function twoStoresOn(kind: (typeof TWO_STORE_KINDS)[number]): TwoStores {
  const stores = {} as TwoStores;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    const db = await database.open();
    stores.first = await ReleaseStore.open(db);
    stores.second = await ReleaseStore.open(kind === 'embedded' ? db : await database.open());
  }, 60_000);
  afterAll(async () => {
    await stores.first?.db.close();
    if (stores.second?.db !== stores.first?.db) await stores.second?.db.close();
    database?.cleanUp();
  });
  return stores;
}
