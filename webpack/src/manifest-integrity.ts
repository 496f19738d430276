import type { Hydration } from '@portico/contract/hydration';
import type { Compilation } from 'webpack';
import { sriOf } from './integrity';
import { NODE_BUILD_DIR, type NodeBuildOutput } from './node-section-build';

interface AssetLists {
  js: { sync: string[]; async: string[] };
  css: { sync: string[]; async: string[] };
}

/** The part of Module Federation's build stats this hook reads and extends. */
export interface ManifestStats {
  metaData: {
    remoteEntry: { name: string; path: string; integrity?: string };
    /** The node build of the section (Modern.js's field), for a server to render it. */
    ssrRemoteEntry?: { name: string; path: string; type: string; integrity?: string };
    buildInfo: { buildVersion: string; buildName: string; buildId?: string };
    /** File (as the manifest lists it) → its Subresource Integrity value. */
    integrity?: Record<string, string>;
    /** How the section hydrates (the section contract, contract/src/hydration.ts). */
    hydration?: Hydration;
    /** The section's island script (island-build.ts; read by contract/src/manifest.ts). */
    island?: { name: string; integrity: string; chunks: string[] };
  };
  exposes?: { assets?: AssetLists }[];
  shared?: { assets?: AssetLists }[];
}

/** Every file the manifest lists for its exposes and shared modules. */
function listedFiles(stats: ManifestStats): string[] {
  const lists = [...(stats.exposes ?? []), ...(stats.shared ?? [])].flatMap(({ assets }) =>
    assets ? [assets.js.sync, assets.js.async, assets.css.sync, assets.css.async] : [],
  );
  return [...new Set(lists.flat())].sort();
}

/**
 * Module Federation's `manifest.additionalData` hook: it runs after the
 * chunks' real content hashes are final and before mf-manifest.json is
 * written (and then compressed), so the manifest can carry hashes.
 *
 * - `metaData.remoteEntry.integrity`: the host loads remoteEntry.js with it;
 * - `metaData.integrity`: the same for every JS and CSS file the manifest
 *   lists, because the host's federation runtime fetches an expose's files
 *   itself, beside the entry, to save a round trip;
 * - `metaData.buildInfo.buildId`: derived from the entry's hash, never the
 *   clock, so two builds of the same sources are the same build.
 *
 * The entry in turn holds the hashes of every chunk it loads (ChunkIntegrity
 * plugin), so a manifest pinned by its own hash in config.json pins the
 * whole remote.
 */
export function addEntryIntegrity({ stats, compilation }: { stats: ManifestStats; compilation: Compilation }): void {
  const { remoteEntry, buildInfo } = stats.metaData;
  const hashOf = (file: string): string | undefined => {
    const asset = compilation.getAsset(file);
    if (!asset) compilation.errors.push(new compilation.compiler.webpack.WebpackError(`manifest integrity: ${file} was not emitted`));
    return asset && sriOf(asset.source.buffer());
  };

  const entryIntegrity = hashOf([remoteEntry.path, remoteEntry.name].filter(Boolean).join('/'));
  if (!entryIntegrity) return;
  remoteEntry.integrity = entryIntegrity;
  buildInfo.buildId = createBuildId(entryIntegrity);
  const integrity: Record<string, string> = {};
  for (const file of listedFiles(stats)) {
    const hash = hashOf(file);
    if (hash) integrity[file] = hash;
  }
  stats.metaData.integrity = integrity;
}

export function createBuildId(entryIntegrity: string): string {
  return Buffer.from(entryIntegrity.replace(/^sha384-/, ''), 'base64')
    .toString('hex')
    .slice(0, 12);
}

/**
 * Names the node build in the browser build's manifest, with its hash, so
 * one manifest URL still describes a section, in the browser and on a
 * server. The node build is one file, so its entry's hash covers all of it.
 */
export function addNodeEntry({ stats, compilation }: { stats: ManifestStats; compilation: Compilation }, nodeBuild: NodeBuildOutput): void {
  if (!nodeBuild.name || !nodeBuild.integrity) {
    compilation.errors.push(
      new compilation.compiler.webpack.WebpackError('manifest integrity: the node build of the section was not built before the browser build'),
    );
    return;
  }
  stats.metaData.ssrRemoteEntry = { name: nodeBuild.name, path: NODE_BUILD_DIR, type: 'commonjs-module', integrity: nodeBuild.integrity };
}
