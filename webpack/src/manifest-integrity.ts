import type { Compilation } from 'webpack';
import { sriOf } from './integrity';

/** The part of Module Federation's build stats this hook reads and extends. */
export interface ManifestStats {
  metaData: {
    remoteEntry: { name: string; path: string; integrity?: string };
    buildInfo: { buildVersion: string; buildName: string; buildId?: string };
  };
}

/**
 * Module Federation's `manifest.additionalData` hook: it runs after the
 * chunks' real content hashes are final and before mf-manifest.json is
 * written (and then compressed), so the manifest can carry the entry's hash.
 * The host loads remoteEntry.js with that `integrity`; the entry in turn holds
 * the hashes of every chunk it loads, so a manifest pinned by its own hash in
 * config.json pins the whole remote.
 */
export function addEntryIntegrity({ stats, compilation }: { stats: ManifestStats; compilation: Compilation }): void {
  const { remoteEntry, buildInfo } = stats.metaData;
  const entryFile = [remoteEntry.path, remoteEntry.name].filter(Boolean).join('/');
  const asset = compilation.getAsset(entryFile);
  if (!asset) {
    compilation.errors.push(new compilation.compiler.webpack.WebpackError(`manifest integrity: ${entryFile} was not emitted`));
    return;
  }
  const integrity = sriOf(asset.source.buffer());
  remoteEntry.integrity = integrity;
  // Derived from the content, not the clock: two builds of the same source
  // carry the same id, so a redeploy of unchanged code changes nothing.
  buildInfo.buildId = createBuildId(integrity);
}

export function createBuildId(entryIntegrity: string): string {
  return Buffer.from(entryIntegrity.replace(/^sha384-/, ''), 'base64').toString('hex').slice(0, 12);
}
