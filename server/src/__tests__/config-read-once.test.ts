import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as configModule from '@portico/shared-config/config';
import type { RunningPortico } from '../portico-server';
import { makeBuiltSite } from './built-site';
import { startWithHome, writeFakeWorkers } from './fake-workers';

// How often one server-rendered page view reads and parses config.json: once
// and once. The file's opens and the JSON.parse of its text are counted by
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
  jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout'] });
  running = await startWithHome(site.root, configPath);
}, 30_000);
afterAll(async () => {
  await running.close();
  jest.useRealTimers();
  site.remove();
});

/** Lets the server's background rounds run once (watching the manifest, warming Home's worker), in real time. */
async function backgroundRound(): Promise<void> {
  jest.advanceTimersByTime(1000);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

test('one server-rendered page view reads config.json once and parses it once, however many parts use it', async () => {
  // The page as a visitor gets it once Home is rendered on the server: the CSP, the preloads, the shell, the hydration data.
  for (let round = 0; !/section by worker \w+ in en/.test(await (await fetch(running.url)).text()); round += 1) {
    if (round > 200) throw new Error('Home was not rendered on the server within 200 rounds');
    await backgroundRound();
  }

  const text = readFileSync(configPath, 'utf8');
  // The module object itself (an `import * as` is a copy of it): the one config-answer.ts calls.
  const opens = jest.spyOn(jest.requireActual<typeof import('node:fs/promises')>('node:fs/promises'), 'open');
  const parses = jest.spyOn(JSON, 'parse');
  const parseConfig = jest.mocked(configModule.parseConfig);
  parseConfig.mockClear();

  // A new page (`/index.html`: a query the page does not use would be the cached `/`), so every part is made for it.
  const response = await fetch(`${running.url}/index.html`);
  const page = await response.text();

  expect(page).toMatch(/section by worker \w+ in en/);
  expect(response.headers.get('content-security-policy')).toContain(`http://127.0.0.1:${running.ports[1]!}`);
  expect(page).toContain('"comName":"Lender"');
  expect(opens.mock.calls.filter(([file]) => file === configPath)).toHaveLength(1);
  expect(parses.mock.calls.filter(([parsed]) => parsed === text)).toHaveLength(1);
  expect(parseConfig).toHaveBeenCalledTimes(1);
});
