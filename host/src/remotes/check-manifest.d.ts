export interface ManifestExpectations {
    /** The module the host asks for, e.g. `./section`. */
    expose: string;
    /**
     * What the page shares as singletons, name to version. With singletons and
     * `loaded-first` the page's copy is what the remote gets, whatever it asked
     * for; Module Federation only warns, and a remote built for another React
     * then crashes with "Invalid hook call".
     */
    pageShares: Readonly<Record<string, string>>;
}
/**
 * Why the page must not load the remote this manifest describes, or
 * `undefined` when it may. Pure: the manifest is what the remote's
 * mf-manifest.json held.
 */
export declare function checkManifest(manifest: unknown, { expose, pageShares }: ManifestExpectations): string | undefined;
export interface ManifestFiles {
    /** The remote's remoteEntry.js. */
    entry: string;
    /** Every script the manifest names: the entry, the exposed modules' chunks, the shared modules' chunks. */
    scripts: string[];
}
/**
 * The URLs of the scripts a checked manifest names. Its files live under its
 * `publicPath`, or, with `auto`, beside the manifest.
 */
export declare function filesOfManifest(manifest: Record<string, unknown>, manifestUrl: string): ManifestFiles;
