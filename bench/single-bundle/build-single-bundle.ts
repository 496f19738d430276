import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { createConfig } from '@portico/webpack';
import webpack, { type Configuration, type RuleSetRule } from 'webpack';
import { REPO_ROOT } from '../paths';
import { replaceHostLoader } from '../replace-host-loader';

const HOST_DIR = path.join(REPO_ROOT, 'host');
const HOST_RENDER_PAGE = path.join(HOST_DIR, 'src/app/render-page');
const HOST_BOOTSTRAP = path.join(HOST_DIR, 'src/bootstrap');

/**
 * The host's production browser build without Module Federation: the factory
 * builds only what the product ships, so the bench takes its config and
 * removes the one ModuleFederationPlugin; everything else is the host's.
 */
function hostConfig(): Configuration {
  const config = createConfig({ app: 'host', dir: HOST_DIR })(undefined, { mode: 'production' });
  const plugins = (config.plugins ?? []).filter((plugin) => !(plugin instanceof ModuleFederationPlugin));
  if (plugins.length !== (config.plugins ?? []).length - 1) {
    throw new Error('single bundle: expected the host config to hold exactly one ModuleFederationPlugin to remove');
  }
  return { ...config, plugins };
}

/**
 * The host built without Module Federation: the same page and the same
 * section components, with the loader swapped for direct imports. Written to
 * `outDir`, laid out like the repository so the same server serves it.
 */
export function singleBundleConfig(outDir: string): Configuration {
  const config = hostConfig();
  return {
    ...config,
    output: { ...config.output, path: outDir },
    plugins: [...(config.plugins ?? []), replaceHostLoader(path.join(__dirname, 'load-section.ts'))],
  };
}

/**
 * The single bundle rendered on the server and hydrated: the browser build
 * above with the host's render-page swapped for hydrate-page.tsx (into
 * `outDir`), and a Node build of server-entry.tsx (into `serverDir`) that
 * renders the same App with react-dom/server.
 */
export function singleBundleSsrConfigs(outDir: string, serverDir: string): Configuration[] {
  const browser = singleBundleConfig(outDir);
  const hydratePage = path.join(__dirname, 'hydrate-page.tsx');
  const bootstrap = path.join(__dirname, 'bootstrap.ts');
  browser.plugins!.push(
    new webpack.NormalModuleReplacementPlugin(/render-page$/, (resource: { context: string; request: string }) => {
      if (path.resolve(resource.context, resource.request) === HOST_RENDER_PAGE) resource.request = hydratePage;
    }),
    // One root hydrated at once: the host's bootstrap would start islands.
    new webpack.NormalModuleReplacementPlugin(/bootstrap$/, (resource: { context: string; request: string }) => {
      if (path.resolve(resource.context, resource.request) === HOST_BOOTSTRAP) resource.request = bootstrap;
    }),
  );
  const base = hostConfig();
  const scriptRule = base.module!.rules![0] as RuleSetRule;
  const server: Configuration = {
    name: 'single-bundle-server',
    mode: 'production',
    target: 'node',
    context: HOST_DIR,
    entry: { 'server-entry': path.join(__dirname, 'server-entry.tsx') },
    output: { path: serverDir, filename: '[name].js', library: { type: 'commonjs2' }, publicPath: '/', clean: true },
    resolve: base.resolve,
    module: {
      rules: [
        scriptRule,
        // Styles are the browser build's; here an import of one is a string nobody reads.
        { test: /\.css$/, type: 'asset/source' },
        { test: /\.(svg|png|webp|jpg)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    },
    plugins: [
      // One file: the language packs' chunks too.
      new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    optimization: { minimize: false },
  };
  return [{ ...browser, name: 'single-bundle-ssr' }, server];
}

export function runWebpack(config: Configuration | Configuration[]): Promise<void> {
  return new Promise((resolve, reject) => {
    webpack(config as Configuration[], (error, stats) => {
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve();
    });
  });
}
