import type { FailureStage } from './classify-failure';
/**
 * What the host's Module Federation runtime needs from us, and what we need
 * from it, in one place: the manifests we fetched and checked ourselves, and
 * how far each remote's load has got (for the stage of a time-out).
 */
export interface LoadProgress {
    stage: FailureStage;
}
/**
 * The versions the page itself shares as singletons (react, react-dom,
 * @portico/shared-config, …). With `loaded-first` these are what every remote
 * gets, whatever it asked for.
 */
export declare function pageShares(): Record<string, string>;
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
export declare function registerCheckedRemote(name: string, manifestUrl: string, manifest: {
    text: string;
    files: readonly string[];
}, progress: LoadProgress): void;
/** Stops tracking a remote's load, and drops a manifest MF never asked for. */
export declare function settleRemote(name: string, manifestUrl: string, progress: LoadProgress): void;
/**
 * A script of this remote still loading: the likeliest culprit of a time-out.
 * MF's loader and webpack's remove a script element once it loads or fails.
 */
export declare function pendingScriptOf(name: string): string | undefined;
