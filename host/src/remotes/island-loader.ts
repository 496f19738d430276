import { ISLAND_EXPORTS_GLOBAL } from '@portico/contract/island-scripts';
import type { SectionModule } from '@portico/shared-config';
import type { CheckedManifest } from './checked-manifest';
import { RemoteFault } from './classify-failure';
import { linkStylesheets } from './integrity-plugin';
import { createSectionLoader } from './load-section';

/** The versions of the modules this page provides to island scripts, as its build read them (webpack's DefinePlugin). */
declare const PORTICO_SHARED_VERSIONS: Record<string, string>;

const checked = new Map<string, CheckedManifest>();
const loading = new Map<string, string>();

type IslandExports = Record<string, Partial<SectionModule> | undefined>;

/** `self.porticoIslands`: made here, before any island script runs, so its assignment finds an object. */
function islandExports(): IslandExports {
  const global = globalThis as unknown as Record<string, IslandExports | undefined>;
  return (global[ISLAND_EXPORTS_GLOBAL] ??= {});
}

/**
 * Runs a section's island script: a `<script>` with the hash its checked
 * manifest gives (the browser refuses other bytes) and CORS (a cross-origin
 * script reports its errors only so), then takes what it left on
 * `self.porticoIslands`. An earlier attempt's exports and webpack chunk
 * array go first: a redeployed build must not find the old one's modules.
 */
function runIslandScript(remote: string): Promise<Partial<SectionModule>> {
  const manifest = checked.get(remote);
  const island = manifest?.island;
  if (!island) {
    return Promise.reject(
      new RemoteFault({
        stage: 'entry',
        url: manifest?.files[0] ?? remote,
        cause: 'names no island script (metaData.island): build it again with the current @portico/webpack',
        transient: false,
      }),
    );
  }
  const exported = islandExports();
  delete exported[remote];
  delete (globalThis as unknown as Record<string, unknown>)[`webpackChunk${remote}_island`];
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = island.url;
    script.integrity = island.integrity;
    script.crossOrigin = 'anonymous';
    const done = () => {
      script.remove();
      loading.delete(remote);
    };
    script.addEventListener('load', () => {
      done();
      const section = exported[remote];
      if (section) resolve(section);
      else reject(new RemoteFault({ stage: 'entry', url: island.url, cause: 'ran but left no section on the page', transient: false }));
    });
    script.addEventListener('error', () => {
      done();
      // The browser tells a network fault and a hash mismatch apart only on the console: either may pass on a retry (a redeploy under way).
      reject(
        new RemoteFault({
          stage: 'entry',
          url: island.url,
          cause: 'could not be loaded (a network error, or bytes that do not match its hash)',
          transient: true,
        }),
      );
    });
    loading.set(remote, island.url);
    document.head.appendChild(script);
  });
}

/**
 * The sections' loader of a server-rendered page whose sections all have an
 * island script: the same manifest fetch, pin, checks, retries and deadline
 * as through Module Federation (load-section.ts), then the island script
 * instead of remoteEntry.js and the federation runtime (issue 50).
 */
export const loadIsland = createSectionLoader({
  fetch: (...args) => fetch(...args),
  pageSearch: () => location.search,
  pageShares: () => ({ ...PORTICO_SHARED_VERSIONS }),
  register: (remote, _manifestUrl, manifest) => {
    linkStylesheets(manifest.stylesheets);
    checked.set(remote, manifest);
  },
  loadExposed: runIslandScript,
  settle: (remote) => {
    checked.delete(remote);
  },
  pendingScript: (remote) => loading.get(remote),
});
