import path from 'node:path';
import { ISLAND_EXPORTS_GLOBAL, ISLAND_SCRIPT_STEM, ISLAND_SHARED_GLOBAL } from '@portico/contract/island-scripts';
import type { Compilation, Compiler, Configuration, WebpackPluginInstance } from 'webpack';
import { jsMinimizer } from './js-minimizer';
import { ChunkIntegrityPlugin } from './chunk-integrity-plugin';
import { sriOf } from './integrity';
import type { ManifestStats } from './manifest-integrity';
import { NODE_BUILD_DIR, type NodeSectionOptions } from './node-section-build';
import { remoteOutDir } from './output-dir';
import { sharedDependencies } from './shared-dependencies';
import { StableModuleIdsPlugin } from './stable-module-ids-plugin';

/** What the island build emitted, for the browser build's manifest to name (`metaData.island`). */
export interface IslandBuildOutput {
  name?: string;
  integrity?: string;
  /** The chunks the island script may load (its texts), each also hashed in `metaData.integrity`. */
  chunks?: Record<string, string>;
}

/** Whether a file in a remote's dist/ is the island build's: the browser build, which runs after it, keeps these. */
export const isIslandFile = (file: string) => file.startsWith(`${ISLAND_SCRIPT_STEM}.`) || file.startsWith(`${ISLAND_SCRIPT_STEM}-`);

const NAME = 'IslandOutputPlugin';

/** Records the island script's file, its SHA-384 and its chunks' once their bytes are final. */
class IslandOutputPlugin {
  constructor(private readonly output: IslandBuildOutput) {}

  apply(compiler: Compiler): void {
    const { Compilation } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tap({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const entry = compilation.entrypoints.get(ISLAND_SCRIPT_STEM);
        const file = entry?.getEntrypointChunk().files.values().next().value;
        if (!file) return;
        const chunks: Record<string, string> = {};
        for (const asset of compilation.getAssets()) {
          if (asset.name !== file && asset.name.endsWith('.js')) chunks[asset.name] = sriOf(asset.source.buffer());
        }
        Object.assign(this.output, { name: file, integrity: sriOf(compilation.getAsset(file)!.source.buffer()), chunks });
      });
    });
  }
}

/** As the node build's (the same app, another target), with the browser build's precompression. */
export interface IslandBuildOptions extends Omit<NodeSectionOptions, 'output'> {
  precompression: WebpackPluginInstance[];
  output: IslandBuildOutput;
}

/**
 * The island script of an interactive remote: `./section` built for a page
 * that provides React, React DOM and shared-config itself
 * (`self.porticoShared`), so a server-rendered page hydrates it without
 * Module Federation's runtime (26.7 KB of brotli in the host's entry and
 * remoteEntry.js, issue 50). Its exports land on `self.porticoIslands[name]`.
 * Its stylesheets are the browser build's (the page links those), so CSS is
 * an empty module here, and its images keep the browser build's names.
 * It runs before the browser build, whose manifest names it.
 */
export function islandConfig(options: IslandBuildOptions): Configuration {
  const { name, dir, exposes } = options;
  const externals = Object.fromEntries(Object.keys(sharedDependencies).map((request) => [request, [ISLAND_SHARED_GLOBAL, request]]));
  return {
    name: `${name}-island`,
    mode: 'production',
    context: dir,
    entry: { [ISLAND_SCRIPT_STEM]: `./${exposes}` },
    devtool: false,
    output: {
      path: remoteOutDir(dir),
      publicPath: 'auto',
      filename: '[name].[contenthash:10].js',
      chunkFilename: `${ISLAND_SCRIPT_STEM}-[name].[contenthash:10].js`,
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      uniqueName: `${name}_island`,
      library: { type: 'assign-properties', name: [ISLAND_EXPORTS_GLOBAL, name] },
      crossOriginLoading: 'anonymous',
      // First into dist/ after the node build (in its own folder).
      clean: { keep: (file: string) => file.startsWith(`${NODE_BUILD_DIR}/`) },
    },
    externalsType: 'self',
    externals,
    resolve: options.resolve,
    module: {
      rules: [
        options.scriptRule,
        { test: /\.css$/, loader: path.join(__dirname, 'null-loader.cjs') },
        // The browser build emits the same files under the same names.
        { test: /\.(svg|png|webp|jpg)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    },
    plugins: [new StableModuleIdsPlugin(options.repoRoot), new ChunkIntegrityPlugin(), new IslandOutputPlugin(options.output), ...options.precompression],
    optimization: { moduleIds: false, minimizer: [jsMinimizer()] },
    performance: { hints: false },
  };
}

/**
 * Names the island script in the browser build's manifest
 * (`metaData.island`: file, hash, chunks) and hashes its chunks in
 * `metaData.integrity` beside the other files, so the publish checks fetch
 * and check them as the page's browser will load them.
 */
export function addIslandScript({ stats, compilation }: { stats: ManifestStats; compilation: Compilation }, island: IslandBuildOutput): void {
  if (!island.name || !island.integrity) {
    compilation.errors.push(
      new compilation.compiler.webpack.WebpackError('manifest integrity: the island script of the section was not built before the browser build'),
    );
    return;
  }
  stats.metaData.island = { name: island.name, integrity: island.integrity, chunks: Object.keys(island.chunks ?? {}).sort() };
  stats.metaData.integrity = { ...stats.metaData.integrity, ...island.chunks };
}
