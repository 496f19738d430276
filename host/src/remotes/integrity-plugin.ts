import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { SiteConfig } from '@portico/shared-config';
import { manifestHashes, manifestPins, sriMatches } from './remote-integrity';

/**
 * Integrity from config.json down to every chunk of a remote:
 *
 * - a manifest pinned in config.json (`remoteIntegrity.<section>`) is fetched
 *   here and refused unless its bytes hash to the pin, and must itself carry
 *   the hash of its remoteEntry.js;
 * - remoteEntry.js, and each file of an expose that the runtime fetches
 *   beside it, is loaded with the hash the manifest gives as `integrity`;
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
  const hashes = new Map<string, string>();

  /**
   * The element Module Federation asked for, with the file's hash and CORS
   * (without which the browser cannot check a cross-origin file). Returning
   * an element means the runtime applies no attributes itself, so they are
   * copied here.
   */
  function withIntegrity<T extends 'script' | 'link'>(tag: T, url: string, attrs: Record<string, unknown> = {}) {
    const integrity = hashes.get(new URL(url, document.baseURI).href);
    if (!integrity) return undefined;
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (typeof value === 'string') element.setAttribute(name, value);
      else if (value === true) element.setAttribute(name, '');
    }
    element.setAttribute(tag === 'script' ? 'src' : 'href', url);
    element.setAttribute('integrity', integrity);
    element.setAttribute('crossorigin', 'anonymous');
    return element;
  }

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
    const given = manifestHashes(JSON.parse(new TextDecoder().decode(bytes)), url);
    if (!given?.entryIntegrity) {
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
      const found = args.manifestJson && manifestHashes(args.manifestJson, args.manifestUrl);
      for (const [url, integrity] of found ? found.byUrl : []) hashes.set(url, integrity);
      return args;
    },

    createScript({ url, attrs }) {
      return withIntegrity('script', url, attrs);
    },

    createLink({ url, attrs }) {
      return withIntegrity('link', url, attrs);
    },
  };
}
