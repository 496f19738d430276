import path from 'node:path';
import { createConfig } from '@portico/webpack';
import webpack, { type Configuration } from 'webpack';
import { REPO_ROOT } from '../paths';
import { replaceHostLoader } from '../replace-host-loader';

/**
 * The host built without Module Federation: the same page and the same
 * section components, with the loader swapped for direct imports. Written to
 * `outDir`, laid out like the repository so the same server serves it.
 */
export function singleBundleConfig(outDir: string): Configuration {
  const config = createConfig({ app: 'host', dir: path.join(REPO_ROOT, 'host'), federation: false })(undefined, {
    mode: 'production',
  });
  return {
    ...config,
    output: { ...config.output, path: outDir },
    plugins: [
      ...(config.plugins ?? []),
      replaceHostLoader(path.join(__dirname, 'load-section.ts')),
    ],
  };
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
