import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { startPortico, type PorticoServerOptions, type RunningPortico } from '@portico/server';
import { sampleConfig } from '@portico/testing/sample-config';
import { startFaultServer, type FaultServer } from './fault-server';
import { REPO_ROOT } from './paths';
import { allowServerStart, SERVER_START_LIMIT_MS, withinStartLimit } from './start-limit';

export interface PorticoSite {
  url: string;
  basePort: number;
  /** The origin of each app, as a visitor's browser sees it. */
  origin: (offset: 0 | 1 | 2 | 3) => string;
  /** Every line the server has logged so far. */
  logged: readonly string[];
}

/**
 * `PORTICO_TEST_PORT_BASE` moves every worker's ports, so two checkouts on one
 * machine can run their browser tests side by side.
 */
const TEST_PORT_BASE = Number(process.env.PORTICO_TEST_PORT_BASE) || 8200;

/**
 * Ports for each worker's own servers, clear of the 8080 the developer may be
 * using: 20 slots of four ports per worker, one slot per site a spec serves.
 * Keyed by the worker's parallel index, which stays below the worker count
 * even when a worker is restarted after a failure.
 */
export function workerPorts(parallelIndex: number, slot = 0): number {
  return TEST_PORT_BASE + parallelIndex * 80 + slot * 4;
}

/**
 * Serves the built apps of `rootDir` (by default this repository's) on
 * basePort..basePort+3, the page server-rendered unless `ssr` is false.
 * Ready means startPortico resolved: its ports are open and its first render
 * worker warm (it waits as long as the start-up limit for one).
 */
export async function serve(
  basePort: number,
  configPath?: string,
  rootDir = REPO_ROOT,
  ssr?: PorticoServerOptions['ssr'],
): Promise<RunningPortico & PorticoSite> {
  allowServerStart();
  const lines: string[] = [];
  const log = linesLogger((line) => {
    lines.push(line);
    process.stderr.write(`${line}\n`);
  });
  const running = await withinStartLimit(
    `Portico on port ${basePort}`,
    () => startPortico({ rootDir, basePort, configPath, ssr, log, firstWorkerWaitMs: SERVER_START_LIMIT_MS }),
    () => lines.join('\n'),
  );
  return { ...running, basePort, origin: (offset) => `http://localhost:${basePort + offset}`, logged: lines };
}

/** The manifest URLs of the remotes `serve(basePort)` serves. */
export function siteRemotes(basePort: number): Record<'home' | 'about' | 'contact', string> {
  return {
    home: `http://localhost:${basePort + 1}/mf-manifest.json`,
    about: `http://localhost:${basePort + 2}/mf-manifest.json`,
    contact: `http://localhost:${basePort + 3}/mf-manifest.json`,
  };
}

/** Writes a config.json for PORTICO_CONFIG; remotes default to the given ports. */
export function writeConfig(basePort: number, overrides: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-config-'));
  const file = path.join(dir, 'config.json');
  const config = {
    ...sampleConfig,
    remotes: siteRemotes(basePort),
    ...overrides,
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** Edits an existing config file in place, as an operator would. */
writeConfig.rewrite = (file: string, changes: Record<string, unknown>) => {
  const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...current, ...changes }, null, 2));
};

/** The fault lab's servers in a worker (fault-lab.ts): a client-rendered site, and a fault server Contact is loaded from. */
export interface LabWorker {
  site: PorticoSite & { close(): Promise<void> };
  faults: FaultServer;
  configPath: string;
}

/**
 * The lab site's port slot, which no spec's server takes (nor a control API,
 * PORT+4, the next slot's first port): the lab's servers live as long as
 * their worker, through every spec it runs after the lab's.
 */
const LAB_SLOT = 19;

/**
 * Every worker-scoped fixture of the browser tests, in one set: Playwright
 * gives a spec whose worker fixtures differ a worker of its own, so a worker
 * that went from one such spec to another was stopped and a new one started
 * (a new Chromium, a new `site`). A worker fixture starts only when a test of
 * the worker first uses it.
 */
export const test = base.extend<object, { site: PorticoSite; labWorker: LabWorker }>({
  site: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
    async ({}, use, workerInfo) => {
      const running = await serve(workerPorts(workerInfo.parallelIndex));
      await use(running);
      await running.close();
    },
    // Its own time limit: start-up is not the first test's time.
    { scope: 'worker', timeout: SERVER_START_LIMIT_MS },
  ],
  labWorker: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
    async ({}, use, workerInfo) => {
      const basePort = workerPorts(workerInfo.parallelIndex, LAB_SLOT);
      const configPath = writeConfig(basePort);
      // The lab tests what the browser does when it loads a section itself
      // (as it does for a section the server left to it): the page is the
      // client-rendered one, so each fault meets the browser first.
      const [site, faults] = await Promise.all([serve(basePort, configPath, undefined, false), startFaultServer()]);
      await use({ site, faults, configPath });
      await Promise.all([site.close(), faults.close()]);
    },
    { scope: 'worker', timeout: SERVER_START_LIMIT_MS },
  ],
});

export { expect } from '@playwright/test';
