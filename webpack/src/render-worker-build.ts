import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DefinePlugin, optimize, type Configuration, type RuleSetRule } from 'webpack';
import { nodeModuleRules } from './node-section-build';

/** Where the host's render worker is written: beside dist/, never inside what the static server serves. */
export const RENDER_WORKER_DIR = 'dist-node';
export const RENDER_WORKER_FILE = 'render-worker.js';

export interface RenderWorkerOptions {
  dir: string;
  /** The worker's entry, relative to `dir`. */
  entry: string;
  scriptRule: RuleSetRule;
  resolve: Configuration['resolve'];
  repoRoot: string;
}

/**
 * The host's render worker: its shell, React's server renderer, shared-config
 * and the node-build loader in one file that `npm run serve` forks. One file,
 * so the worker reads nothing but itself (no node_modules at run time, no
 * chunk loader); not minified, so a stack trace in the server's log reads.
 */
export function renderWorkerConfig(options: RenderWorkerOptions): Configuration {
  const sharedConfigVersion = (
    JSON.parse(readFileSync(path.join(options.repoRoot, 'shared-config/package.json'), 'utf8')) as { version: string }
  ).version;
  return {
    name: 'portico_host-render-worker',
    mode: 'production',
    context: options.dir,
    target: 'node20.19',
    entry: { 'render-worker': `./${options.entry}` },
    devtool: false,
    output: {
      path: path.join(options.dir, RENDER_WORKER_DIR),
      filename: RENDER_WORKER_FILE,
      clean: true,
    },
    resolve: options.resolve,
    module: { rules: nodeModuleRules(options.scriptRule) },
    plugins: [
      // The version the sections' node builds check shared-config against (strictVersion).
      new DefinePlugin({ 'process.env.PORTICO_SHARED_CONFIG_VERSION': JSON.stringify(sharedConfigVersion) }),
      new optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    optimization: { minimize: false, splitChunks: false, runtimeChunk: false },
    performance: { hints: false },
  };
}
