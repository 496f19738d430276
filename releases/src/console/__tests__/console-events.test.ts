import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { releaseCommand } from '../../cli/release-command';
import type { PublishChecks } from '../../release';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi } from '../../control/control-api';
import { consoleSignIn } from './console-sign-in';
import { silentLogger } from '@portico/platform/logging';

// `GET /api/events`: what a console hears when something changes anywhere.

const TOKEN = 'the-integrator-token';
const checks: PublishChecks = ({ manifestUrl }) =>
  Promise.resolve({ ok: true, checks: [], manifest: { integrity: `sha384-${manifestUrl.length}`, version: '1.0.0', buildId: manifestUrl.split('/').at(-2)! } });

let database: TestDatabase;
let store: ReleaseStore;
/** The console's server, and another server on the same database, which the command talks to. */
let consoleServer: ControlApi;
let other: ControlApi;
let folder: string;

beforeAll(async () => {
  database = embeddedTestDatabase();
  folder = mkdtempSync(path.join(tmpdir(), 'portico-console-events-'));
  store = await ReleaseStore.open(await database.open(), { environmentToken: TOKEN });
  const options = { store, port: 0, publishChecks: checks, publicUrl: 'http://localhost:8080', log: silentLogger };
  consoleServer = await startControlApi(options);
  other = await startControlApi(options);
}, 60_000);

afterAll(async () => {
  await consoleServer?.close();
  await other?.close();
  await store?.db.close();
  database?.cleanUp();
  rmSync(folder, { recursive: true, force: true });
});

/** `npm run release -- ...args` against the other server. */
async function release(args: string[]): Promise<string> {
  let stdout = '';
  const code = await releaseCommand(args, {
    env: { PORTICO_CONTROL_URL: other.url, PORTICO_DATA_DIR: folder, PORTICO_TOKEN: TOKEN },
    rootDir: folder,
    invokedFrom: folder,
    out: (text) => (stdout += text),
    err: () => undefined,
  });
  expect(code).toBe(0);
  return stdout;
}

/** A console's event stream, signed in with `token`, read as the console reads it (fetch, its CSRF header). */
async function listen(token: string) {
  const { headers } = await consoleSignIn(consoleServer.url, token);
  const controller = new AbortController();
  const response = await fetch(`${consoleServer.url}/api/events`, { headers, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  // One read at a time: a read the deadline overtook is the next one's.
  let pendingRead = reader.read();
  const heard: { at: number; event: { kind: string; section?: string } }[] = [];
  /** The first event `matches` takes, heard since the stream opened; fails after `withinMs`. */
  const next = async (matches: (event: { kind: string; section?: string }) => boolean, withinMs: number) => {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const found = heard.find(({ event }) => matches(event));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${withinMs} ms; heard ${JSON.stringify(heard.map(({ event }) => event))}`);
      const reading = pendingRead;
      const chunk = await Promise.race([
        reading,
        new Promise<undefined>((resolve) => {
          const timer = setTimeout(resolve, left);
          const clear = () => clearTimeout(timer);
          reading.then(clear, clear);
        }),
      ]);
      if (chunk) pendingRead = reader.read();
      if (!chunk || chunk.done) continue;
      buffered += chunk.value;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (/^event: change$/m.test(block) && data) heard.push({ at: Date.now(), event: JSON.parse(data) as { kind: string; section?: string } });
      }
    }
  };
  const close = () => {
    // The read under way ends with the stream.
    pendingRead.catch(() => undefined);
    controller.abort();
  };
  return { next, heard, close };
}

it('tells a console within 2 s of a change the command made on another server, and a section token only of its section', async () => {
  const integrator = await listen(TOKEN);
  const { token: homeToken } = await store.tokens.create({ name: 'home-team', section: 'home', actor: 'test' });
  const home = await listen(homeToken);
  try {
    const published = /published (contact-\d+)/.exec(await release(['publish', 'contact', 'https://cdn.example/contact/v1/mf-manifest.json']))![1]!;
    const asked = Date.now();
    await release(['activate', 'contact', published]);
    const heard = await integrator.next((event) => event.kind === 'sections' && event.section === 'contact', 2000);
    expect(heard.at - asked).toBeLessThan(2000);

    // The Home team hears of Home, never of Contact.
    await release(['publish', 'home', 'https://cdn.example/home/v1/mf-manifest.json']);
    await home.next((event) => event.kind === 'releases' && event.section === 'home', 2000);
    expect(home.heard.filter(({ event }) => event.section === 'contact')).toEqual([]);
  } finally {
    integrator.close();
    home.close();
  }
});
