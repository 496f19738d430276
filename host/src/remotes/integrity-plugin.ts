import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { SiteConfig } from '@portico/shared-config';
import { entryIntegrityOf, manifestPins, sriMatches } from './remote-integrity';

/**
 * Integrity from config.json down to every chunk of a remote:
 *
 * - a manifest pinned in config.json (`remoteIntegrity.<section>`) is fetched
 *   here and refused unless its bytes hash to the pin, and must itself carry
 *   the hash of its remoteEntry.js;
 * - remoteEntry.js is loaded with that hash as `integrity` (and CORS, without
 *   which the browser cannot check it);
 * - remoteEntry.js holds the hashes of the chunks it loads (our webpack
 *   factory's ChunkIntegrityPlugin), so the browser refuses an altered chunk.
 *
 * A refusal is an error like any failed load: the section shows its alert.
 */
export function remoteIntegrityPlugin(
  config: Pick<SiteConfig, 'remotes' | 'remoteIntegrity'>,
  fetchManifest: typeof fetch = (...args) => fetch(...args),
): ModuleFederationRuntimePlugin {
  const pins = manifestPins(config);
  const entryHashes = new Map<string, string>();

  const fetchPinned = async (url: string, init: RequestInit, pin: string): Promise<Response> => {
    const response = await fetchManifest(url, init);
    if (!response.ok) return response;
    const bytes = await response.arrayBuffer();
    let matches: boolean;
    try {
      matches = await sriMatches(bytes, pin);
    } catch (error) {
      throw new Error(`cannot check ${url} against its remoteIntegrity pin: ${(error as Error).message}`);
    }
    if (!matches) throw new Error(`${url} does not match its remoteIntegrity pin in config.json; refusing it`);
    const entry = entryIntegrityOf(JSON.parse(new TextDecoder().decode(bytes)), url);
    if (!entry?.integrity) {
      throw new Error(`${url} matches its pin but gives no remoteEntry integrity, so its code could not be checked`);
    }
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  return {
    name: 'portico-remote-integrity',

    fetch(url, init) {
      const pin = pins.get(url);
      return pin ? fetchPinned(url, init, pin) : undefined;
    },

    async afterLoadManifest(args) {
      const entry = args.manifestJson && entryIntegrityOf(args.manifestJson, args.manifestUrl);
      if (entry?.integrity) entryHashes.set(entry.url, entry.integrity);
      return args;
    },

    createScript({ url }) {
      const integrity = entryHashes.get(url) ?? entryHashes.get(new URL(url, document.baseURI).href);
      if (!integrity) return undefined;
      const script = document.createElement('script');
      script.src = url;
      script.setAttribute('integrity', integrity);
      script.setAttribute('crossorigin', 'anonymous');
      return script;
    },
  };
}
