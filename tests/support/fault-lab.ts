import { rmSync, writeFileSync } from 'node:fs';
import { sampleConfig } from '@portico/testing/sample-config';
import { startFaultServer, type FaultServer } from './fault-server';
import { SERVER_START_LIMIT_MS } from './start-limit';
import { serve, test as base, workerPorts, writeConfig, type PorticoSite } from './fixtures';

/** This worker's port slot for the lab's site (see workerPorts). */
const LAB_SLOT = 10;

export interface Lab {
  site: PorticoSite;
  /** Serves remote-contact's build with switchable faults; config.json points Contact at it. */
  faults: FaultServer;
  /**
   * Writes the config.json the next page load reads: the sample config with
   * Home and About on the site's own remotes and Contact on the fault server,
   * then `changes` on top.
   */
  configure(changes?: Record<string, unknown>): void;
  /** Replaces config.json with raw text, or removes it (null). */
  writeConfigText(text: string | null): void;
}

interface LabWorker {
  site: PorticoSite & { close(): Promise<void> };
  faults: FaultServer;
  configPath: string;
}

/**
 * Browser tests of faults: one site per worker, client-rendered, served with a PORTICO_CONFIG
 * file (read afresh on every request, so each test writes its own), and one
 * fault server. Every test starts with no fault and the default lab config.
 */
export const test = base.extend<{ lab: Lab }, { labWorker: LabWorker }>({
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
    // Its own time limit: start-up is not the first test's time.
    { scope: 'worker', timeout: SERVER_START_LIMIT_MS },
  ],
  lab: async ({ labWorker }, use) => {
    const { site, faults, configPath } = labWorker;
    const configure = (changes: Record<string, unknown> = {}) => {
      const config = {
        ...sampleConfig,
        remotes: {
          home: `${site.origin(1)}/mf-manifest.json`,
          about: `${site.origin(2)}/mf-manifest.json`,
          contact: faults.manifestUrl,
        },
        // The lab tests the loader on every section: Home and About are granted script here (issue 46; built in, they are static).
        sections: { home: { interactive: true }, about: { interactive: true } },
        ...changes,
      };
      writeFileSync(configPath, JSON.stringify(config, null, 2));
    };
    const writeConfigText = (text: string | null) => (text === null ? rmSync(configPath, { force: true }) : writeFileSync(configPath, text));
    faults.clear();
    configure();
    await use({ site, faults, configure, writeConfigText });
    faults.clear();
  },
});

export { expect } from './fixtures';
