import path from 'node:path';
import { constants as zlib, type BrotliOptions } from 'node:zlib';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { SECTION_MANIFEST_PATH } from '@portico/contract/manifest-relay';
import { isBuiltInSection } from '@portico/contract/section-entries';
import { basePort, EXPOSED_SECTION, portOf, remoteNameOf, type AppName } from '@portico/contract/sections';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Compilation, Configuration, ResolveOptions, RuleSetRule, WebpackPluginInstance } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { jsMinimizer } from './js-minimizer';
import { checkOptions, type AppOptions } from './app-options';
import { ChunkIntegrityPlugin } from './chunk-integrity-plugin';
import { IslandFilesPlugin } from './island-files-plugin';
import { addIslandScript, islandConfig, isIslandFile, type IslandBuildOutput } from './island-build';
import { federationSemverPath } from './federation-semver';
import { islandsConfig, islandsScriptIn, isIslandsFile } from './islands-build';
import type { ConfigFactory, WebpackArgv } from './config-factory';
import { answerDevConfig, relayDevManifest } from './dev-config';
import { addEntryIntegrity, addNodeEntry, type ManifestStats } from './manifest-integrity';
import { NODE_BUILD_DIR, nodeSectionConfig, type NodeBuildOutput } from './node-section-build';
import { pageScriptConfig, pageScriptIn } from './page-script-build';
import { remoteOutDir } from './output-dir';
import { plainAppConfig, type PlainAppOptions } from './plain-app-build';
import { PublicFilesPlugin } from './public-files-plugin';
import { serverWorkersConfig } from './server-workers-build';
import { sharedDependencies } from './shared-dependencies';
import { StableModuleIdsPlugin } from './stable-module-ids-plugin';

/** How far above PORT an added section's dev server starts looking for a free port: past the site's ports and the control API's. */
const ADDED_SECTION_DEV_PORT_OFFSET = 10;

/**
 * The dev server's port: the built-in apps' fixed ones; an added section's
 * the one its config names, or else webpack-dev-server's first free port
 * from PORT+10 (its `auto` counts up from WEBPACK_DEV_SERVER_BASE_PORT,
 * 8080 unless set, which is the host's own port).
 */
function devPortOf(app: string, port: number | undefined): number | 'auto' {
  if (app === 'host' || isBuiltInSection(app)) return portOf(app as AppName, process.env);
  if (port !== undefined) return port;
  process.env.WEBPACK_DEV_SERVER_BASE_PORT ??= String(basePort(process.env) + ADDED_SECTION_DEV_PORT_OFFSET);
  return 'auto';
}

const REPO_ROOT = path.resolve(__dirname, '../..');
const RUNTIME_CORE_ESM = path.join(path.dirname(require.resolve('@module-federation/runtime-tools/package.json')), 'dist/runtime-core.js');

/**
 * How every app's TypeScript is compiled: swc strips the types and compiles
 * the JSX, with the options jest's @swc/jest uses (jest.config.base.cjs), so
 * the tests and the builds run code compiled alike; `tsc -b` type-checks
 * every package in `npm test`. swc in place of ts-loader's transpileOnly:
 * each build no longer loads TypeScript's compiler, measured in
 * docs/performance-test-suite.md.
 */
const SCRIPT_RULE: RuleSetRule = {
  test: /\.tsx?$/,
  exclude: /node_modules/,
  loader: 'swc-loader',
  options: {
    // These options and no others: not a `.swcrc` a section's folder may hold.
    swcrc: false,
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
  },
};

const resolve: ResolveOptions = {
  extensions: ['.ts', '.tsx', '.js'],
  // The runtime the host provides to remotes is `require`d by Module
  // Federation's CommonJS plugin; without this its CommonJS copy would
  // ship beside the ES module copy the host itself runs (+80 KB).
  alias: { '@module-federation/runtime-tools/runtime-core$': RUNTIME_CORE_ESM },
};

/** Text assets worth precompressing; images other than SVG are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt)$/;

/**
 * `.gz` and `.br` beside each text asset, made once at build time at the
 * highest levels, so neither `npm run serve` (send) nor nginx
 * (gzip_static/brotli_static) compresses anything per request.
 */
function precompression(): WebpackPluginInstance[] {
  return [
    new CompressionPlugin({
      algorithm: 'gzip',
      filename: '[path][base].gz',
      test: COMPRESSIBLE,
      compressionOptions: { level: 9 },
      minRatio: 0.9,
    }),
    new CompressionPlugin<BrotliOptions>({
      algorithm: 'brotliCompress',
      filename: '[path][base].br',
      test: COMPRESSIBLE,
      compressionOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } },
      minRatio: 0.9,
    }),
  ];
}

/** The host's dev server answers /config.json (each section granted script) and the sections' manifests the way `npm run serve` does. */
const serveConfigJson: NonNullable<DevServerConfiguration['setupMiddlewares']> = (middlewares) => [
  { name: 'portico-config', path: '/config.json', middleware: answerDevConfig },
  // The page reads manifests from its own origin (its CSP's connect-src): here, from the dev remotes on this machine.
  { name: 'portico-section-manifest', path: SECTION_MANIFEST_PATH, middleware: relayDevManifest },
  ...middlewares,
];

/**
 * A browser app without Module Federation (the operator console), built
 * with the same loaders, resolution and precompression as the federated
 * apps (plain-app-build.ts).
 */
export function createPlainAppConfig(options: PlainAppOptions): ConfigFactory<Configuration> {
  return plainAppConfig(options, { scriptRule: SCRIPT_RULE, resolve, precompression, repoRoot: REPO_ROOT });
}

/**
 * The one webpack configuration of every Portico app. An app's
 * webpack.config.ts names the app and what it exposes; everything else
 * (loaders, federation, sharing, output) is decided here, once.
 *
 * A remote's production build is two compilations: the node build of its
 * section (node-section-build.ts), then the browser build, whose manifest
 * names the node build.
 */
export function createConfig(options: AppOptions & { app: 'host'; serverWorkers?: undefined }): ConfigFactory<Configuration>;
export function createConfig(options: AppOptions): ConfigFactory<Configuration | Configuration[]>;
export function createConfig(options: AppOptions): ConfigFactory<Configuration | Configuration[]> {
  checkOptions(options);
  const { app, dir, exposes } = options;
  const isRemote = app !== 'host';
  const name = app === 'host' ? 'portico_host' : remoteNameOf(app);

  const scriptRule = SCRIPT_RULE;

  /**
   * In production one copy of the federation runtime serves the page: the
   * host provides it and each remote entry uses it, instead of every
   * remoteEntry.js carrying its own (about 70 KB each). A remote's production
   * build is therefore only loadable by a host; its standalone page exists on
   * its dev server, where it keeps a runtime of its own.
   */
  const federationPlugin = (production: boolean, nodeBuild?: NodeBuildOutput, islandBuild?: IslandBuildOutput) => {
    const sharedRuntime = isRemote
      ? { externalRuntime: true, optimization: { disableSnapshot: true, disableRemote: true, target: 'web' as const } }
      : { provideExternalRuntime: true, optimization: { target: 'web' as const } };
    return new ModuleFederationPlugin({
      name,
      filename: 'remoteEntry.js',
      exposes: exposes ? { [EXPOSED_SECTION]: `./${exposes}` } : undefined,
      shared: sharedDependencies,
      // The host registers remotes at run time from config.json, so it
      // never waits for every remote before its own code runs.
      shareStrategy: 'loaded-first',
      // Remotes' manifests carry the hashes of remoteEntry.js and of the
      // files they list, for the host to check (manifest-integrity.ts).
      manifest: isRemote
        ? {
            additionalData: (args: { stats: ManifestStats; compilation: Compilation }) => {
              addEntryIntegrity(args);
              args.stats.metaData.hydration = options.hydration;
              if (nodeBuild) addNodeEntry(args, nodeBuild);
              if (islandBuild) addIslandScript(args, islandBuild);
            },
          }
        : true,
      // Types are a contract in @portico/shared-config instead; generating
      // them makes the host's build depend on running remotes.
      dts: false,
      experiments: production ? sharedRuntime : undefined,
    });
  };

  return (_env: unknown, argv: WebpackArgv = {}): Configuration | Configuration[] => {
    const production = argv.mode !== 'development';
    // A remote's production build also emits the node build of its section,
    // first, so the browser build's manifest can name it with its hash.
    const nodeBuild: NodeBuildOutput | undefined = isRemote && production ? {} : undefined;
    // An interactive section's island script too, before the browser build (island-build.ts).
    const islandBuild: IslandBuildOutput | undefined = nodeBuild && options.hydration?.mode === 'interactive' ? {} : undefined;
    const hashed = production ? '.[contenthash:10]' : '';
    // A remote's production dist/ is what the host loads and nothing more.
    const standalonePage = !isRemote || !production;
    const withPageScript = production && options.pageScript !== undefined;
    const browser: Configuration = {
      mode: production ? 'production' : 'development',
      context: dir,
      entry: standalonePage ? { main: './src/index.ts' } : {},
      devtool: production ? false : 'cheap-module-source-map',
      output: {
        path: isRemote ? remoteOutDir(dir) : path.join(dir, 'dist'),
        // `auto` lets a remote's dist/ work from whatever URL it is deployed at.
        publicPath: 'auto',
        // Module Federation's runtime asks for the entry's file name before
        // its content hash exists, only to learn the folder depth; a name
        // without the hash has the same depth. The emitted file is hashed.
        filename: (pathData) => (production && pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js'),
        chunkFilename: `[name]${hashed}.js`,
        assetModuleFilename: `assets/[name]${hashed}[ext]`,
        uniqueName: name,
        clean: nodeBuild
          ? { keep: (file: string) => file.startsWith(`${NODE_BUILD_DIR}/`) || isIslandFile(file) }
          : withPageScript
            ? { keep: (file: string) => file.startsWith('page-script') || isIslandsFile(file) }
            : true,
        // Chunks are checked against their SHA-384 (below); a cross-origin
        // script only reports integrity failures when fetched with CORS.
        crossOriginLoading: 'anonymous',
      },
      resolve,
      module: {
        rules: [
          scriptRule,
          {
            test: /\.css$/,
            use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'],
          },
          { test: /\.(svg|png|webp|jpg)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        federationPlugin(production, nodeBuild, islandBuild),
        new PublicFilesPlugin(path.join(dir, 'public')),
        ...(standalonePage
          ? [
              new HtmlWebpackPlugin({
                // A remote's page is its team's standalone preview; the host's is the site.
                // The host's keeps its `<!--!portico:…-->` markers (html-minifier-terser
                // keeps comments that start with `!`): the render worker fills them.
                template: isRemote ? path.join(__dirname, '../templates/standalone.html') : './src/index.html',
                // A page without an icon makes the browser ask for /favicon.ico, a 404.
                favicon: path.join(__dirname, '../templates/favicon.svg'),
                scriptLoading: 'defer',
                // The page script the render worker names in the server-rendered page
                // (`<%= pageScript %>` in index.html), built just before this.
                templateParameters: (compilation, assets, assetTags, pluginOptions) => ({
                  compilation,
                  webpackConfig: compilation.options,
                  htmlWebpackPlugin: { tags: assetTags, files: assets, options: pluginOptions },
                  pageScript: (withPageScript && pageScriptIn(path.join(dir, 'dist'))) || '',
                  islandsScript: (withPageScript && islandsScriptIn(path.join(dir, 'dist'))) || '',
                }),
              }),
            ]
          : []),
        ...(production
          ? [
              new StableModuleIdsPlugin(REPO_ROOT),
              // Every chunk's SHA-384 is built into the runtime that loads it,
              // so a chunk altered after the build is refused by the browser.
              new ChunkIntegrityPlugin(),
              // The host's scripts an island loads, for the server-rendered page to fetch ahead of a tap (the islands' build's, when there is one).
              ...(withPageScript && !options.islandsScript ? [new IslandFilesPlugin('main')] : []),
              new MiniCssExtractPlugin({ filename: `[name]${hashed}.css`, chunkFilename: `[name]${hashed}.css` }),
              ...precompression(),
            ]
          : []),
      ],
      // Production ids come from StableModuleIdsPlugin: reproducible builds.
      // html-webpack-plugin minifies the page; webpack's own HTML minimizer
      // would minify it again and drop the render worker's markers.
      optimization: production ? { moduleIds: false, minimizeOptions: { html: false }, minimizer: [jsMinimizer()] } : undefined,
      performance: { hints: false },
      devServer: {
        // Only a dev server listens; a production build leaves the environment alone.
        port: production ? undefined : devPortOf(app, options.port),
        host: 'localhost',
        hot: false,
        liveReload: true,
        historyApiFallback: false,
        headers: isRemote ? { 'Access-Control-Allow-Origin': '*' } : undefined,
        setupMiddlewares: isRemote ? undefined : serveConfigJson,
        // The contact endpoint lives in the Node server only: with
        // PORTICO_API_URL (a running `npm run serve`) the host's dev server
        // passes /api/ on, keeping Host so its Origin check sees this page.
        // Without it /api/ answers 404 and the form says delivery is unavailable.
        proxy: !isRemote && process.env.PORTICO_API_URL ? [{ context: ['/api/'], target: process.env.PORTICO_API_URL }] : undefined,
        client: { overlay: { warnings: false } },
      },
    };
    if (options.serverWorkers && production) {
      const workers = serverWorkersConfig({ dir, entries: options.serverWorkers, scriptRule, resolve, repoRoot: REPO_ROOT });
      if (!withPageScript) return [browser, ...workers];
      const page = pageScriptConfig({ dir, entry: options.pageScript!, scriptRule, resolve, precompression: precompression() });
      if (!options.islandsScript) return [page, { ...browser, name, dependencies: [page.name!] }, ...workers];
      const islands = islandsConfig({
        dir,
        entry: options.islandsScript,
        scriptRule,
        resolve,
        repoRoot: REPO_ROOT,
        federationSemver: federationSemverPath(REPO_ROOT),
        precompression: precompression(),
      });
      return [page, { ...islands, dependencies: [page.name!] }, { ...browser, name, dependencies: [page.name!, islands.name!] }, ...workers];
    }
    if (!nodeBuild) return browser;
    const node = nodeSectionConfig({ name, dir, exposes: exposes!, scriptRule, resolve, repoRoot: REPO_ROOT, output: nodeBuild });
    if (!islandBuild) return [node, { ...browser, name, dependencies: [node.name!] }];
    const island = islandConfig({
      name,
      dir,
      exposes: exposes!,
      scriptRule,
      resolve,
      repoRoot: REPO_ROOT,
      precompression: precompression(),
      output: islandBuild,
    });
    return [node, { ...island, dependencies: [node.name!] }, { ...browser, name, dependencies: [node.name!, island.name!] }];
  };
}
