import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Integrity from config.json down to every chunk of a remote:
 *
 * - a manifest pinned in config.json (`remoteIntegrity.<section>`) is refused
 *   by the loader unless the bytes it fetched, the ones the runtime then
 *   parses, hash to the pin (load-section.ts);
 * - remoteEntry.js, and each file of an expose that the runtime fetches
 *   beside it, is loaded with the hash the manifest gives as `integrity`;
 * - remoteEntry.js holds the hashes of the chunks it loads (our webpack
 *   factory's ChunkIntegrityPlugin), so the browser refuses an altered chunk.
 *
 * A refusal is an error like any failed load: the section shows its alert.
 */
/** Every file's hash, by absolute URL, from each manifest the loader checked (read once, by @portico/contract's reader). */
const hashes = new Map<string, string>();

/** Notes a checked manifest's hashes, before the runtime loads any of its files. */
export function rememberHashes(found: ReadonlyMap<string, string>): void {
  for (const [url, integrity] of found) hashes.set(url, integrity);
}

export function remoteIntegrityPlugin(): ModuleFederationRuntimePlugin {
  /**
   * The element Module Federation asked for. Returning an element means the
   * runtime applies no attributes itself, so they are copied here.
   */
  function withAttributes<T extends 'script' | 'link'>(tag: T, url: string, attrs: Record<string, unknown>) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (typeof value === 'string') element.setAttribute(name, value);
      else if (value === true) element.setAttribute(name, '');
    }
    element.setAttribute(tag === 'script' ? 'src' : 'href', url);
    return element;
  }

  /** That element with the file's hash and CORS (without which the browser cannot check a cross-origin file); undefined when no manifest gave a hash. */
  function withIntegrity<T extends 'script' | 'link'>(tag: T, url: string, attrs: Record<string, unknown> = {}) {
    const integrity = hashes.get(new URL(url, document.baseURI).href);
    if (!integrity) return undefined;
    const element = withAttributes(tag, url, attrs);
    element.setAttribute('integrity', integrity);
    element.setAttribute('crossorigin', 'anonymous');
    return element;
  }

  /**
   * A section's stylesheet that the server-rendered page already links from
   * its own origin (`data-href` names the section's URL for it): the same
   * copy again, which the browser has, instead of a second download from
   * the section's origin when its island hydrates.
   */
  function pageCopyOf(url: string, attrs: Record<string, unknown> = {}) {
    const wanted = new URL(url, document.baseURI).href;
    const copy = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-href]')].find((link) => link.getAttribute('data-href') === wanted);
    if (!copy) return undefined;
    const element = withAttributes('link', url, attrs);
    for (const name of ['href', 'integrity', 'crossorigin', 'data-href']) {
      const value = copy.getAttribute(name);
      if (value === null) element.removeAttribute(name);
      else element.setAttribute(name, value);
    }
    return element;
  }

  return {
    name: 'portico-remote-integrity',

    createScript({ url, attrs }) {
      return withIntegrity('script', url, attrs);
    },

    createLink({ url, attrs }) {
      return pageCopyOf(url, attrs) ?? withIntegrity('link', url, attrs);
    },
  };
}
