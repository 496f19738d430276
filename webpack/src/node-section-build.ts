import path from 'node:path';
import { EXPOSED_SECTION } from '@portico/contract/sections';
import { container, optimize, type Compiler, type Configuration, type RuleSetRule } from 'webpack';
import { sriOf } from './integrity';
import { remoteOutDir } from './output-dir';
import { sharedDependencies } from './shared-dependencies';
import { StableModuleIdsPlugin } from './stable-module-ids-plugin';

/** The folder of a remote's dist/ that holds its node build. */
export const NODE_BUILD_DIR = 'server';

/** What the node build emitted, for the browser build's manifest to name. */
export interface NodeBuildOutput {
  /** The entry's file name inside NODE_BUILD_DIR, content-hashed. */
  name?: string;
  /** Its Subresource Integrity value (SHA-384): the whole node build. */
  integrity?: string;
}

const NAME = 'NodeEntryPlugin';

/**
 * Names the node build's one file `remoteEntry.<hash>.js` after its own
 * SHA-384, once its bytes are final, and records name and hash for the
 * browser build's manifest.
 *
 * `[contenthash]` cannot be in the container's file name (the name is asked
 * for before any hash exists), and merging the chunks into one drops the
 * container's own `filename`. Renaming afterwards is safe because nothing
 * refers to the file by name: the build is one file that loads no chunk.
 */
class NodeEntryPlugin {
  constructor(private readonly output: NodeBuildOutput) {}

  apply(compiler: Compiler): void {
    const { Compilation, WebpackError } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tap({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const files = compilation.getAssets().map((asset) => asset.name);
        if (files.length !== 1 || !files[0]!.endsWith('.js')) {
          compilation.errors.push(
            new WebpackError(
              `${NAME}: the node build must be one .js file, so the server fetches and checks one file; it emitted ${files.join(', ') || 'nothing'}`,
            ),
          );
          return;
        }
        const asset = compilation.getAsset(files[0]!)!;
        const integrity = sriOf(asset.source.buffer());
        const hex = Buffer.from(integrity.replace(/^sha384-/, ''), 'base64')
          .toString('hex')
          .slice(0, 10);
        const name = `remoteEntry.${hex}.js`;
        compilation.renameAsset(files[0]!, name);
        Object.assign(this.output, { name, integrity });
      });
    });
  }
}

/** Shared modules as the node build declares them: always the host's, never a copy of its own. */
const hostOnlyShared = Object.fromEntries(
  Object.entries(sharedDependencies).map(([name, options]) => [name, { ...options, import: false as const, strictVersion: true }]),
);

export interface NodeSectionOptions {
  /** The federation name (the browser build's). */
  name: string;
  dir: string;
  exposes: string;
  /** The rule that compiles the app's TypeScript, the browser build's own. */
  scriptRule: RuleSetRule;
  resolve: Configuration['resolve'];
  repoRoot: string;
  output: NodeBuildOutput;
}

/**
 * The node build of a remote's section: the container a server loads to
 * render `./section` to HTML. One file, no chunk loading, no CSS, and no
 * copy of React or shared-config: the server provides them.
 */
/**
 * The loaders of a build that runs in Node (a section's node build, the
 * render worker): scripts as in the browser, CSS left to the browser build,
 * images named but not emitted (the browser build serves them).
 */
export function nodeModuleRules(scriptRule: RuleSetRule): RuleSetRule[] {
  return [
    scriptRule,
    { test: /\.css$/, loader: path.join(__dirname, 'null-loader.cjs') },
    { test: /\.(svg|png|webp|jpg)$/, type: 'asset/resource', generator: { emit: false } },
  ];
}

export function nodeSectionConfig(options: NodeSectionOptions): Configuration {
  const { name, dir, exposes } = options;
  return {
    name: `${name}-node`,
    mode: 'production',
    context: dir,
    target: 'async-node',
    entry: {},
    devtool: false,
    output: {
      path: path.join(remoteOutDir(dir), NODE_BUILD_DIR),
      publicPath: '',
      filename: '[name].js',
      chunkFilename: '[name].js',
      uniqueName: `${name}_node`,
      library: { type: 'commonjs-module' },
      chunkFormat: 'commonjs',
      clean: true,
    },
    resolve: options.resolve,
    module: { rules: nodeModuleRules(options.scriptRule) },
    plugins: [
      // webpack's own container: the same init/get protocol as Module
      // Federation 2's, without its runtime (docs/decisions.md).
      new container.ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        library: { type: 'commonjs-module' },
        exposes: { [EXPOSED_SECTION]: `./${exposes}` },
        shared: hostOnlyShared,
      }),
      new optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
      new StableModuleIdsPlugin(options.repoRoot),
      new NodeEntryPlugin(options.output),
    ],
    optimization: { moduleIds: false, minimize: false, splitChunks: false, runtimeChunk: false },
    performance: { hints: false },
  };
}
