import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as configModule from '@portico/shared-config/config';
import { eventually } from '@portico/testing/eventually';
import type { RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';
import { startWithHome, writeFakeWorkers } from './fake-workers';

// How often a server-rendered page view reads and parses config.json: not at
// all while the file is unchanged, once and once after an edit. The file's opens and the JSON.parse of its text are counted by
// spies that call through; parseConfig by a wrapper that calls the real one.
// The server's own background rounds (they re-read config.json every second
// for the hosts it renders for) run on setInterval, which this test holds
// still while it counts: what is counted is the page view alone.

jest.mock('@portico/shared-config/config', () => {
  const actual = jest.requireActual<typeof import('@portico/shared-config/config')>('@portico/shared-config/config');
  return { ...actual, parseConfig: jest.fn(actual.parseConfig) };
});

const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
let running: RunningPortico;
beforeAll(async () => {
  // Only the intervals are the test's: everything else runs in real time.
  jest.useFakeTimers({
    doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout'],
  });
  running = await startWithHome(site.root, configPath);
}, 30_000);
afterAll(async () => {
  await running.close();
  jest.useRealTimers();
  site.remove();
});

/** The file's modification time a minute ago: past any doubt about its stamp (ConfigFile's RACY_STAMP_MS). */
function settle(file: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
}

/** One page view (`/index.html`, or a query the page does not use: the cached `/` would not make every part) and what it cost in reads and parses of config.json. */
async function pageView(target: string): Promise<{ page: string; csp: string | null; opens: number; parses: number; validations: number }> {
  const text = readFileSync(configPath, 'utf8');
  // The module object itself (an `import * as` is a copy of it): the one config-answer.ts calls.
  const opens = jest.spyOn(jest.requireActual<typeof import('node:fs/promises')>('node:fs/promises'), 'open');
  const parses = jest.spyOn(JSON, 'parse');
  const parseConfig = jest.mocked(configModule.parseConfig);
  parseConfig.mockClear();
  try {
    const response = await fetch(`${running.url}${target}`);
    return {
      page: await response.text(),
      csp: response.headers.get('content-security-policy'),
      opens: opens.mock.calls.filter(([file]) => file === configPath).length,
      parses: parses.mock.calls.filter(([parsed]) => parsed === text).length,
      validations: parseConfig.mock.calls.length,
    };
  } finally {
    opens.mockRestore();
    parses.mockRestore();
  }
}

test('a page view reads and parses an unchanged config.json not at all, and an edited one once, however many parts use it', async () => {
  // The page as a visitor gets it once Home is rendered on the server: the CSP, the preloads, the shell, the hydration data.
  // Each check lets the server's background rounds run once (watching the manifest, warming Home's worker), then asks
  // for the page; what the rounds start runs in real time between checks (no fixed sleep).
  await eventually(
    async () => {
      jest.advanceTimersByTime(1000);
      expect(await (await fetch(running.url)).text()).toMatch(/section by worker \w+ in en/);
    },
    { what: 'Home rendered on the server', withinMs: 60_000 },
  );
  settle(configPath);
  // A first request sees the settled stamp (and reads the file once more: its stamp changed).
  await fetch(`${running.url}/?rt=1`);

  const unchanged = await pageView('/index.html');
  expect(unchanged.page).toMatch(/section by worker \w+ in en/);
  expect(unchanged.csp).toContain(`http://127.0.0.1:${running.ports[1]!}`);
  expect(unchanged.page).toContain('"comName":"Lender"');
  expect(unchanged).toMatchObject({ opens: 0, parses: 0, validations: 0 });

  writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('"comName":"Lender"', '"comName":"Edited"'));
  // The same address as before: the page remembered for it is of the old file.
  const edited = await pageView('/index.html');
  expect(edited.page).toContain('"comName":"Edited"');
  expect(edited).toMatchObject({ opens: 1, parses: 1, validations: 1 });
}, 90_000);
