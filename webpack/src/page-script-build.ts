import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Configuration, RuleSetRule, WebpackPluginInstance } from 'webpack';
import { ChunkIntegrityPlugin } from './chunk-integrity-plugin';
import { jsMinimizer } from './js-minimizer';

/** The page script's file name pattern: hashed, so the static servers cache it for a year. */
const PAGE_SCRIPT_FILE = /^page-script\.[0-9a-f]{10}\.js$/;

export interface PageScriptOptions {
  /** The host's folder. */
  dir: string;
  /** The page script's entry, relative to `dir`. */
  entry: string;
  scriptRule: RuleSetRule;
  resolve: Configuration['resolve'];
  /** The `.br`/`.gz` plugins the browser build uses. */
  precompression: WebpackPluginInstance[];
}

/** The name of the page script the last build wrote into `distDir`; undefined when there is none. */
export function pageScriptIn(distDir: string): string | undefined {
  try {
    return readdirSync(distDir).find((file) => PAGE_SCRIPT_FILE.test(file));
  } catch {
    return undefined;
  }
}

/**
 * The server-rendered page's script, a compilation of its own without
 * Module Federation: the federation plugin puts its runtime (about 25 KB
 * compressed) into every entry of a compilation, and this script must be as
 * small as the page's first interaction allows. It runs first in dist/ and
 * clears it; the browser build (which depends on it) keeps its files and
 * names it in index.html for the render worker (`<!--!portico:page-script …-->`).
 */
export function pageScriptConfig(options: PageScriptOptions): Configuration {
  return {
    name: 'portico_host-page-script',
    mode: 'production',
    context: options.dir,
    entry: { 'page-script': `./${options.entry}` },
    devtool: false,
    output: {
      path: path.join(options.dir, 'dist'),
      // The front server inlines the page script into the page, where `auto`
      // (which reads the script's own src) has nothing to read; the host is
      // served at the root of its origin.
      publicPath: '/',
      filename: '[name].[contenthash:10].js',
      chunkFilename: 'page-script-[name].[contenthash:10].js',
      uniqueName: 'portico_host_page_script',
      clean: true,
      crossOriginLoading: 'anonymous',
    },
    resolve: options.resolve,
    module: { rules: [options.scriptRule] },
    plugins: [new ChunkIntegrityPlugin(), ...options.precompression],
    // swc's minifier, as every other browser build (js-minimizer.ts); webpack's default would be terser.
    optimization: { minimizer: [jsMinimizer()] },
    performance: { hints: false },
  };
}
