import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { PageStylesheet } from '@portico/contract/section-styles';

/**
 * Integrity from config.json down to every chunk of a remote:
 *
 * - a manifest pinned in config.json (`remoteIntegrity.<section>`) is refused
 *   by the loader unless the bytes it fetched, the ones the runtime then
 *   parses, hash to the pin (load-section.ts);
 * - remoteEntry.js, and each script of an expose that the runtime fetches
 *   beside it, is loaded with the hash the manifest gives as `integrity`;
 *   its stylesheets only as the page's origin scoped them (`linkStylesheets`);
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

/** The page's link of a section's stylesheet (`data-href`: the section's URL for it), if it has one. */
function pageLinkOf(source: string): HTMLLinkElement | undefined {
  const wanted = new URL(source, document.baseURI).href;
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-href]')].find((link) => link.getAttribute('data-href') === wanted);
}

/**
 * Links a section's stylesheets as the page's origin scopes them to its
 * slot, before its code loads, unless the page links them already (the
 * server-rendered page's links, an earlier attempt's): webpack's CSS loader
 * in the section's code and Module Federation (`createLink` below) then
 * find these by `data-href` and add none of their own. One the server
 * cannot scope fails to load, and the section has no stylesheet.
 */
export function linkStylesheets(stylesheets: readonly PageStylesheet[]): void {
  for (const { href, source } of stylesheets) {
    if (pageLinkOf(source)) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.setAttribute('data-href', new URL(source, document.baseURI).href);
    document.head.appendChild(link);
  }
}

export function remoteIntegrityPlugin(): ModuleFederationRuntimePlugin {
  /**
   * The element Module Federation asked for. Returning an element means the
   * runtime applies no attributes itself, so they are copied here.
   */
  function withAttributes<T extends 'script' | 'link'>(tag: T, url: string, attrs: Record<string, unknown>, withUrl = true) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (typeof value === 'string') element.setAttribute(name, value);
      else if (value === true) element.setAttribute(name, '');
    }
    if (withUrl) element.setAttribute(tag === 'script' ? 'src' : 'href', url);
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
    const copy = pageLinkOf(url);
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
      const copy = pageCopyOf(url, attrs);
      if (copy) return copy;
      // A section's stylesheet the page has no scoped copy of is not applied as published (issue 46): a link that
      // fetches nothing (Module Federation's preload of it times out quietly; nothing waits for it).
      if (attrs?.rel === 'stylesheet' || attrs?.as === 'style') return withAttributes('link', url, attrs, false);
      return withIntegrity('link', url, attrs);
    },
  };
}
