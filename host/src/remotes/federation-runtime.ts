import { getInstance, loadRemote, registerPlugins, registerRemotes, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { SectionModule } from '@portico/shared-config';
import { EXPOSED_SECTION } from '@portico/contract/sections';
import { createSectionLoader } from './load-section';
import type { CheckedManifest, LoadProgress } from './checked-manifest';
import { linkStylesheets, rememberHashes, remoteIntegrityPlugin } from './integrity-plugin';

/**
 * What the host's Module Federation runtime needs from us, and what we need
 * from it, in one place: the manifests the loader fetched and checked, and
 * how far each remote's load has got (for the stage of a time-out).
 */

/** The bytes of each manifest the loader fetched and checked, by URL, until its load settles. */
const checkedManifests = new Map<string, Uint8Array<ArrayBuffer>>();
/** Every manifest URL the loader has handled: Module Federation never fetches one of these itself. */
const loaderManifests = new Set<string>();
const progressOf = new Map<string, LoadProgress>();

/**
 * The one owner of Module Federation's `fetch` hook (the runtime keeps the
 * last answer of that hook, so a second owner could swap the bytes). It hands
 * the runtime the very bytes the loader fetched, pinned and checked, so a
 * manifest is fetched once per attempt and what runs is what was checked. A
 * section's manifest the loader did not fetch is refused rather than fetched
 * unchecked. It also notes when a remote's remoteEntry.js has run: what still
 * loads after that is the exposed module's chunks.
 */
function porticoLoadingPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'portico-remote-loading',
    fetch(url) {
      const bytes = checkedManifests.get(url);
      if (bytes) return Promise.resolve(new Response(bytes, { headers: { 'Content-Type': 'application/json' } }));
      if (loaderManifests.has(url)) return Promise.reject(new Error(`${url} was not fetched and checked by the page's loader; refusing it`));
      return undefined;
    },
    async afterLoadEntry({ remoteInfo, error }) {
      const progress = progressOf.get(remoteInfo.name);
      if (progress && !error) progress.stage = 'chunk';
    },
  };
}

let installed = false;

/** The page's runtime plugins, each hook with one owner: loading (fetch, afterLoadEntry) and integrity (script and link elements). */
function installPlugins(): void {
  if (installed) return;
  registerPlugins([porticoLoadingPlugin(), remoteIntegrityPlugin()]);
  installed = true;
}

/**
 * The versions the page itself shares as singletons (react, react-dom,
 * @portico/shared-config, …). With `loaded-first` these are what every remote
 * gets, whatever it asked for.
 */
function pageShares(): Record<string, string> {
  const instance = getInstance();
  const shares: Record<string, string> = {};
  for (const [name, versions] of Object.entries(instance?.options.shared ?? {})) {
    const own = versions.find((shared) => shared.from === instance?.name) ?? versions[0];
    if (own?.shareConfig?.singleton && own.version) shares[name] = own.version;
  }
  return shares;
}

/** The scripts each remote's checked manifest names, to tell which one hangs. */
const filesOf = new Map<string, ReadonlySet<string>>();

/**
 * Registers the remote afresh, with the manifest the loader fetched and
 * checked, and tracks its progress. `registerRemotes(..., { force: true })`
 * drops Module Federation's caches (manifest, snapshot, remoteEntry global,
 * container, shares). The remote's webpack chunk array survives it and would
 * hand the new container the modules of the old, broken build, so it goes too
 * (`uniqueName` is the federation name: the webpack factory sets it so).
 * A request still hanging is not restarted: the browser shares an in-flight
 * script load with any new request for the same URL, so a new attempt gets
 * its outcome (see docs/decisions.md).
 */
function registerCheckedRemote(name: string, manifestUrl: string, manifest: CheckedManifest, progress: LoadProgress): void {
  installPlugins();
  linkStylesheets(manifest.stylesheets);
  rememberHashes(manifest.hashes);
  delete (window as unknown as Record<string, unknown>)[`webpackChunk${name}`];
  registerRemotes([{ name, entry: manifestUrl }], { force: true });
  filesOf.set(name, new Set(manifest.files));
  loaderManifests.add(manifestUrl);
  checkedManifests.set(manifestUrl, manifest.bytes);
  progressOf.set(name, progress);
}

/** Stops tracking a remote's load, and drops its manifest's bytes. */
function settleRemote(name: string, manifestUrl: string, progress: LoadProgress): void {
  if (progressOf.get(name) === progress) progressOf.delete(name);
  checkedManifests.delete(manifestUrl);
}

/**
 * A script of this remote still loading: the likeliest culprit of a time-out.
 * MF's loader and webpack's remove a script element once it loads or fails.
 */
function pendingScriptOf(name: string): string | undefined {
  const files = filesOf.get(name) ?? new Set<string>();
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).filter(
    (script) => script.dataset.webpack?.startsWith(`${name}:`) || files.has(script.src),
  );
  return scripts.at(-1)?.src;
}

/**
 * The sections' loader through Module Federation's runtime: the
 * client-rendered page's, and a server-rendered page's whose sections
 * include one built without an island script (island-loader.ts).
 */
export const loadSection = createSectionLoader({
  fetch: (...args) => fetch(...args),
  pageSearch: () => location.search,
  pageShares,
  register: registerCheckedRemote,
  loadExposed: (remote) => loadRemote<Partial<SectionModule>>(`${remote}/${EXPOSED_SECTION.replace(/^\.\//, '')}`),
  settle: settleRemote,
  pendingScript: pendingScriptOf,
});
