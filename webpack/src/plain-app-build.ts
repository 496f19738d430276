import { existsSync } from 'node:fs';
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Configuration, ResolveOptions, RuleSetRule, WebpackPluginInstance } from 'webpack';
import { jsMinimizer } from './js-minimizer';
import type { ConfigFactory } from './config-factory';
import { StableModuleIdsPlugin } from './stable-module-ids-plugin';

export interface PlainAppOptions {
  /** The app's webpack name and `output.uniqueName`, e.g. `portico_console`. */
  name: string;
  /** The app's folder, holding `src/index.tsx` and `src/index.html`. */
  dir: string;
}

/** What the plain build takes from the federated one, so loaders and compression are decided once (create-config.ts). */
export interface PlainAppParts {
  scriptRule: RuleSetRule;
  resolve: ResolveOptions;
  precompression: () => WebpackPluginInstance[];
  repoRoot: string;
}

function checkPlainOptions(options: PlainAppOptions): void {
  if (!/^[a-z][a-z0-9_]*$/.test(options.name)) {
    throw new Error(`createPlainAppConfig: name must be lower-case letters, digits and _, got "${options.name}"`);
  }
  for (const file of ['src/index.tsx', 'src/index.html']) {
    if (!path.isAbsolute(options.dir) || !existsSync(path.join(options.dir, file))) {
      throw new Error(`createPlainAppConfig: dir must be the absolute path of a folder with ${file}, got "${options.dir}"`);
    }
  }
}

/**
 * A browser app that is not federated (the operator console): one entry,
 * hashed files, CSS in files of its own, `.br`/`.gz` beside each, and an
 * index.html whose only scripts are `<script defer src>`, so the page runs
 * under a CSP without 'unsafe-inline'. Served at the root of its origin.
 */
export function plainAppConfig(options: PlainAppOptions, parts: PlainAppParts): ConfigFactory<Configuration> {
  checkPlainOptions(options);
  const { name, dir } = options;
  return (_env, argv = {}) => {
    const production = argv.mode !== 'development';
    const hashed = production ? '.[contenthash:10]' : '';
    return {
      name,
      mode: production ? 'production' : 'development',
      context: dir,
      entry: { main: './src/index.tsx' },
      devtool: production ? false : 'cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        publicPath: '/',
        filename: `[name]${hashed}.js`,
        chunkFilename: `[name]${hashed}.js`,
        assetModuleFilename: `assets/[name]${hashed}[ext]`,
        uniqueName: name,
        clean: true,
      },
      resolve: parts.resolve,
      module: {
        rules: [
          parts.scriptRule,
          { test: /\.css$/, use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'] },
          { test: /\.(svg|png|webp|jpg)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new HtmlWebpackPlugin({
          template: './src/index.html',
          favicon: path.join(__dirname, '../templates/favicon.svg'),
          scriptLoading: 'defer',
        }),
        ...(production
          ? [
              new StableModuleIdsPlugin(parts.repoRoot),
              new MiniCssExtractPlugin({ filename: `[name]${hashed}.css`, chunkFilename: `[name]${hashed}.css` }),
              ...parts.precompression(),
            ]
          : []),
      ],
      optimization: production ? { moduleIds: false, minimizer: [jsMinimizer()] } : undefined,
      performance: { hints: false },
    };
  };
}
