import {
  getInstance,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import type { FailureStage } from './classify-failure';

/**
 * What the host's Module Federation runtime needs from us, and what we need
 * from it, in one place: the manifests we fetched and checked ourselves, and
 * how far each remote's load has got (for the stage of a time-out).
 */

export interface LoadProgress {
  stage: FailureStage;
}

const checkedManifests = new Map<string, string>();
const progressOf = new Map<string, LoadProgress>();

/**
 * Hands Module Federation the manifest the loader already fetched and checked,
 * so it is not fetched twice (and not swapped between the check and the use),
 * and notes when a remote's remoteEntry.js has run: what still loads after
 * that is the exposed module's chunks.
 */
function porticoLoadingPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'portico-remote-loading',
    fetch(url) {
      const text = checkedManifests.get(url);
      if (text === undefined) return undefined;
      checkedManifests.delete(url);
      return Promise.resolve(new Response(text, { headers: { 'Content-Type': 'application/json' } }));
    },
    async afterLoadEntry({ remoteInfo, error }) {
      const progress = progressOf.get(remoteInfo.name);
      if (progress && !error) progress.stage = 'chunk';
    },
  };
}

let installed = false;

function installPlugin(): void {
  if (installed) return;
  registerPlugins([porticoLoadingPlugin()]);
  installed = true;
}

/**
 * The versions the page itself shares as singletons (react, react-dom,
 * @portico/shared-config, …). With `loaded-first` these are what every remote
 * gets, whatever it asked for.
 */
export function pageShares(): Record<string, string> {
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
export function registerCheckedRemote(
  name: string,
  manifestUrl: string,
  manifest: { text: string; files: readonly string[] },
  progress: LoadProgress,
): void {
  installPlugin();
  delete (window as unknown as Record<string, unknown>)[`webpackChunk${name}`];
  registerRemotes([{ name, entry: manifestUrl }], { force: true });
  filesOf.set(name, new Set(manifest.files));
  checkedManifests.set(manifestUrl, manifest.text);
  progressOf.set(name, progress);
}

/** Stops tracking a remote's load, and drops a manifest MF never asked for. */
export function settleRemote(name: string, manifestUrl: string, progress: LoadProgress): void {
  if (progressOf.get(name) === progress) progressOf.delete(name);
  checkedManifests.delete(manifestUrl);
}

/**
 * A script of this remote still loading: the likeliest culprit of a time-out.
 * MF's loader and webpack's remove a script element once it loads or fails.
 */
export function pendingScriptOf(name: string): string | undefined {
  const files = filesOf.get(name) ?? new Set<string>();
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).filter(
    (script) => script.dataset.webpack?.startsWith(`${name}:`) || files.has(script.src),
  );
  return scripts.at(-1)?.src;
}
