import { rmSync, writeFileSync } from 'node:fs';
import { sampleConfig } from '@portico/testing/sample-config';
import type { FaultServer } from './fault-server';
import { test as base, type PorticoSite } from './fixtures';

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

/**
 * Browser tests of faults: one site per worker, client-rendered, served with a PORTICO_CONFIG
 * file (read afresh on every request, so each test writes its own), and one
 * fault server (fixtures.ts's `labWorker`: a worker fixture there, so the lab's
 * specs share their workers with the others). Every test starts with no fault
 * and the default lab config.
 */
export const test = base.extend<{ lab: Lab }>({
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
