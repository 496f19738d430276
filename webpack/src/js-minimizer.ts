import MinimizerPlugin from 'minimizer-webpack-plugin';
import type { WebpackPluginInstance } from 'webpack';

/**
 * The JavaScript minimizer of every production browser build: swc's, in
 * place of webpack's default terser. Same job (compress, mangle, licence
 * comments extracted), a fraction of the CPU: the builds run at every
 * `npm test` and in every team's CI. Measured in docs/performance-log.md.
 */
export function jsMinimizer(): WebpackPluginInstance {
  return new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, minimizerOptions: { compress: { passes: 2 }, mangle: true } });
}
