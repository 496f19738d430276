import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DefinePlugin, type Configuration, type RuleSetRule, type WebpackPluginInstance } from 'webpack';
import { jsMinimizer } from './js-minimizer';
import { ChunkIntegrityPlugin } from './chunk-integrity-plugin';
import { IslandFilesPlugin } from './island-files-plugin';
import { sharedDependencies } from './shared-dependencies';
import { StableModuleIdsPlugin } from './stable-module-ids-plugin';

/** The islands' entry's name, and its file's pattern in the host's dist/. */
const ISLANDS_ENTRY = 'islands';
const ISLANDS_FILE = /^islands\.[0-9a-f]{10}\.js$/;

/** Whether a file in the host's dist/ is the islands build's: the browser build, which runs after it, keeps these. */
export const isIslandsFile = (file: string) => file.startsWith(`${ISLANDS_ENTRY}.`) || file.startsWith(`${ISLANDS_ENTRY}-`) || file === 'island-files.json';

/** The islands' entry the last build wrote into `distDir`; undefined when there is none. */
export function islandsScriptIn(distDir: string): string | undefined {
  try {
    return readdirSync(distDir).find((file) => ISLANDS_FILE.test(file));
  } catch {
    return undefined;
  }
}

/** The version in the package.json of the package `request` resolves into (found upwards: not every package exports its package.json). */
function versionOf(request: string, dir: string): string {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0]!;
  for (let folder = path.dirname(require.resolve(request, { paths: [dir] })); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    try {
      const found = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (found.name === name && found.version) return found.version;
    } catch {
      // No package.json at this level: look further up.
    }
  }
  throw new Error(`islands build: no version found for the shared module ${request}`);
}

/** Each shared module's version, as Module Federation's plugin reads it for the page's federated build: from its package.json. */
function sharedVersions(dir: string): Record<string, string> {
  return Object.fromEntries(Object.keys(sharedDependencies).map((request) => [request, versionOf(request, dir)]));
}

export interface IslandsBuildOptions {
  /** The host's folder. */
  dir: string;
  /** The islands' entry, relative to `dir`. */
  entry: string;
  scriptRule: RuleSetRule;
  resolve: Configuration['resolve'];
  repoRoot: string;
  /** Module Federation's semver module: the manifest check's `satisfy`, without the rest of the runtime. */
  federationSemver: string;
  precompression: WebpackPluginInstance[];
}

/**
 * The server-rendered page's islands (issue 50): React, React DOM,
 * shared-config and the sections' loader, without Module Federation's
 * runtime. It provides the shared modules to the sections' island scripts
 * (island-build.ts) and loads those instead of remoteEntry.js. A compilation
 * of its own: the federation plugin puts its runtime into every entry of
 * its compilation. The host's styles are the page's (linked by index.html),
 * so CSS is an empty module here. Built after the page script, before the
 * browser build, which names it in index.html for the render worker.
 */
export function islandsConfig(options: IslandsBuildOptions): Configuration {
  return {
    name: 'portico_host-islands',
    mode: 'production',
    context: options.dir,
    entry: { [ISLANDS_ENTRY]: `./${options.entry}` },
    devtool: false,
    output: {
      path: path.join(options.dir, 'dist'),
      publicPath: 'auto',
      filename: '[name].[contenthash:10].js',
      chunkFilename: `${ISLANDS_ENTRY}-[name].[contenthash:10].js`,
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      uniqueName: 'portico_host_islands',
      clean: false,
      crossOriginLoading: 'anonymous',
    },
    resolve: {
      ...options.resolve,
      // `satisfy` alone: a build fails if anything else of the runtime is imported here.
      alias: { ...(options.resolve?.alias as Record<string, string>), '@module-federation/enhanced/runtime$': options.federationSemver },
    },
    module: {
      rules: [
        options.scriptRule,
        { test: /\.css$/, loader: path.join(__dirname, 'null-loader.cjs') },
        { test: /\.(svg|png|webp|jpg)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    },
    plugins: [
      new DefinePlugin({ PORTICO_SHARED_VERSIONS: JSON.stringify(sharedVersions(options.dir)) }),
      new StableModuleIdsPlugin(options.repoRoot),
      new ChunkIntegrityPlugin(),
      new IslandFilesPlugin(ISLANDS_ENTRY),
      ...options.precompression,
    ],
    optimization: { moduleIds: false, minimizer: [jsMinimizer()] },
    performance: { hints: false },
  };
}
