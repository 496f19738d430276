import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SectionId } from '@portico/contract/sections';
import { embeddedTestDatabase } from '@portico/platform/testing';
import { releaseCommand } from '../../cli/release-command';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi, type ControlApiOptions } from '../control-api';
import { silentLogger } from '@portico/platform/logging';

/** A control API on port 0 over a fresh embedded store, with a folder of its own (the CLI's data folder), for a test file's beforeAll. */
export interface ControlApiOnTestStore {
  store: ReleaseStore;
  api: ControlApi;
  folder: string;
  /** A request to the API with a bearer token: its status and its JSON body. */
  call(method: string, route: string, token: string, body?: unknown): Promise<ApiAnswer>;
  /** `npm run release -- <args>` against the API with the owner's token: its exit code and what it printed. */
  release(...args: string[]): Promise<{ code: number; out: string; err: string }>;
  /** Stops the API, closes the store and removes its database and folder. */
  close(): Promise<void>;
}

/** What the API answered, as the route tests read it. */
interface ApiAnswer {
  status: number;
  body: Record<string, unknown> & { error?: string; field?: string };
}

/** The set-up the control API's route tests share: `owner` the environment's token, `publishChecks` what a publish is checked with. */
export async function controlApiOnTestStore(
  name: string,
  options: { owner: string; publishChecks: PublishChecks; configuredRemotes?: ControlApiOptions['configuredRemotes']; metrics?: ControlApiOptions['metrics'] },
): Promise<ControlApiOnTestStore> {
  const database = embeddedTestDatabase();
  const folder = mkdtempSync(path.join(tmpdir(), `portico-${name}-`));
  const store = await ReleaseStore.open(await database.open(), { environmentToken: options.owner });
  const api = await startControlApi({
    store,
    port: 0,
    publishChecks: options.publishChecks,
    configuredRemotes: options.configuredRemotes,
    metrics: options.metrics,
    publicUrl: 'http://localhost:8080',
    log: silentLogger,
  });
  return {
    store,
    api,
    folder,
    async call(method, route, token, body) {
      const response = await fetch(`${api.url}${route}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as ApiAnswer['body'] };
    },
    async release(...args) {
      let out = '';
      let err = '';
      const code = await releaseCommand(args, {
        env: { PORTICO_CONTROL_URL: api.url, PORTICO_DATA_DIR: folder, PORTICO_TOKEN: options.owner },
        rootDir: folder,
        invokedFrom: folder,
        out: (text) => (out += text),
        err: (text) => (err += text),
      });
      return { code, out, err };
    },
    async close() {
      await api.close();
      await store.db.close();
      database.cleanUp();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A fake publish check that passes every build, each with an integrity and a build id (`b<n>`) of its own; `passed()` counts them. */
export function passingChecks(): { checks: PublishChecks; passed(): number } {
  let passed = 0;
  return {
    checks: () => {
      passed++;
      return Promise.resolve({ ok: true, checks: [], manifest: { integrity: `sha384-${passed}`, version: '1.0.0', buildId: `b${passed}` } });
    },
    passed: () => passed,
  };
}

/** A test file's control API, open for its tests: the store, the calls, and a section token (`ci-<section>`) for each section asked. */
export interface FileControlApi extends Pick<ControlApiOnTestStore, 'call' | 'release'> {
  readonly store: ReleaseStore;
  token(section: SectionId): string;
}

/** controlApiOnTestStore opened in the file's beforeAll (with the section tokens made then) and closed in its afterAll. */
export function controlApiForFile(
  name: string,
  options: Parameters<typeof controlApiOnTestStore>[1],
  sectionTokens: readonly SectionId[] = [],
): FileControlApi {
  let running: ControlApiOnTestStore | undefined;
  const tokens = new Map<string, string>();
  const opened = () => {
    if (!running) throw new Error(`the control API of ${name} is opened in beforeAll`);
    return running;
  };
  beforeAll(async () => {
    running = await controlApiOnTestStore(name, options);
    for (const section of sectionTokens) tokens.set(section, (await running.store.tokens.create({ name: `ci-${section}`, section, actor: 'test' })).token);
  }, 60_000);
  afterAll(() => running?.close());
  return {
    get store() {
      return opened().store;
    },
    call: (...args) => opened().call(...args),
    release: (...args) => opened().release(...args),
    token: (section) => {
      const token = tokens.get(section);
      if (token === undefined) throw new Error(`no token for ${section}: name it in controlApiForFile's sectionTokens`);
      return token;
    },
  };
}
