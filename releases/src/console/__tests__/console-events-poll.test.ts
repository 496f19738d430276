import type { Database } from '@portico/platform/database';
import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { ReleaseStore } from '../../store/release-store';
import { startConsoleEvents, type ConsoleEvents } from '../console-events';
import type { ConsoleEvent } from '@portico/control-contract';

// A console hears of a change even when no notification reaches it (its
// listening connection lost): the read of each kind's state catches it.

let database: TestDatabase;
let store: ReleaseStore;
let events: ConsoleEvents;

beforeAll(async () => {
  database = embeddedTestDatabase();
  store = await ReleaseStore.open(await database.open());
  // A database whose notifications never arrive.
  const deaf: Database = {
    ...store.db,
    query: store.db.query.bind(store.db),
    transaction: store.db.transaction.bind(store.db),
    listen: () => Promise.reject(new Error('the listening connection is gone')),
  };
  events = await startConsoleEvents(deaf, { pollMs: 100, withMessages: false });
}, 60_000);

afterAll(async () => {
  await events?.close();
  await store?.db.close();
  database?.cleanUp();
});

it('reports a change no notification told of, from its next read', async () => {
  const heard = new Promise<ConsoleEvent>((resolve) => {
    const stop = events.subscribe((event) => {
      if (event.kind !== 'tokens') return;
      stop();
      resolve(event);
    });
  });
  await store.tokens.create({ name: 'made-meanwhile', section: 'home', actor: 'test' });
  expect(await heard).toEqual({ kind: 'tokens' });
});
