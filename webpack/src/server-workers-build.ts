import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DefinePlugin, optimize, type Configuration, type RuleSetRule } from 'webpack';
import { nodeModuleRules } from './node-section-build';

/** Where the host's server workers are written: beside dist/, never inside what the static server serves. */
export const SERVER_WORKERS_DIR = 'dist-node';
/** The shell worker (host code only) and the section worker (runs a section's node build, sandboxed). */
export const SHELL_WORKER_FILE = 'shell-worker.js';
export const SECTION_WORKER_FILE = 'section-worker.js';

export interface ServerWorkersOptions {
  dir: string;
  /** Each worker's entry, relative to `dir`. */
  entries: { shell: string; section: string };
  scriptRule: RuleSetRule;
  resolve: Configuration['resolve'];
  repoRoot: string;
}

/**
 * The host's server workers, each one self-contained file that `npm run
 * serve` starts: the shell worker (the host's shell, React's server
 * renderer, shared-config) and the section worker (the same React and
 * shared-config, the node-build evaluator, the section renderer). One file
 * each, so a worker reads nothing but itself (no node_modules at run time,
 * no chunk loader: a sandboxed section worker can read no other file); not
 * minified, so a stack trace in the server's log reads.
 */
export function serverWorkersConfig(options: ServerWorkersOptions): Configuration[] {
  const sharedConfigVersion = (JSON.parse(readFileSync(path.join(options.repoRoot, 'shared-config/package.json'), 'utf8')) as { version: string }).version;
  const worker = (file: string, entry: string, clean: boolean): Configuration => ({
    name: `portico_host-${path.basename(file, '.js')}`,
    mode: 'production',
    context: options.dir,
    target: 'node20.19',
    entry: { [path.basename(file, '.js')]: `./${entry}` },
    devtool: false,
    output: {
      path: path.join(options.dir, SERVER_WORKERS_DIR),
      filename: file,
      // Both write here: the first compilation clears what an older build left, the second keeps the first's file.
      clean: clean ? true : { keep: (asset: string) => asset !== file },
    },
    resolve: options.resolve,
    module: { rules: nodeModuleRules(options.scriptRule) },
    plugins: [
      // The version the sections' node builds check shared-config against (strictVersion).
      new DefinePlugin({ 'process.env.PORTICO_SHARED_CONFIG_VERSION': JSON.stringify(sharedConfigVersion) }),
      // Every chunk (the language packs' too) in the one file.
      new optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    optimization: { minimize: false, splitChunks: false, runtimeChunk: false },
    performance: { hints: false },
  });
  const shell = worker(SHELL_WORKER_FILE, options.entries.shell, true);
  return [shell, { ...worker(SECTION_WORKER_FILE, options.entries.section, false), dependencies: [shell.name!] }];
}
