import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { ReleaseStore } from '@portico/releases';

/**
 * A release store on an embedded database of its own, for the tests of one
 * file: opened before them, closed (and its folder removed) after. Read
 * `held.store` inside a test or hook, once `beforeAll` has run.
 */
export function releaseStorePerFile(): { store: ReleaseStore } {
  let database: TestDatabase | undefined;
  const held = {} as { store: ReleaseStore };
  beforeAll(async () => {
    database = embeddedTestDatabase();
    held.store = await ReleaseStore.open(await database.open());
  }, 60_000);
  afterAll(async () => {
    await held.store?.db.close();
    database?.cleanUp();
  });
  return held;
}
