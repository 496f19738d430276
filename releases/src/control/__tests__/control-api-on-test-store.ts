import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedTestDatabase } from '@portico/platform/testing';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi } from '../control-api';

/** A control API on port 0 over a fresh embedded store, with a folder of its own (the CLI's data folder), for a test file's beforeAll. */
export interface ControlApiOnTestStore {
  store: ReleaseStore;
  api: ControlApi;
  folder: string;
  /** Stops the API, closes the store and removes its database and folder. */
  close(): Promise<void>;
}

/** The set-up the control API's route tests share: `owner` the environment's token, `publishChecks` what a publish is checked with. */
export async function controlApiOnTestStore(name: string, options: { owner: string; publishChecks: PublishChecks }): Promise<ControlApiOnTestStore> {
  const database = embeddedTestDatabase();
  const folder = mkdtempSync(path.join(tmpdir(), `portico-${name}-`));
  const store = await ReleaseStore.open(await database.open(), { environmentToken: options.owner });
  const api = await startControlApi({ store, port: 0, publishChecks: options.publishChecks, publicUrl: 'http://localhost:8080', log: () => undefined });
  return {
    store,
    api,
    folder,
    async close() {
      await api.close();
      await store.db.close();
      database.cleanUp();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
