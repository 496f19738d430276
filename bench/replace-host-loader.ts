import path from 'node:path';
import webpack from 'webpack';
import { REPO_ROOT } from './paths';

const HOST_LOADER = path.join(REPO_ROOT, 'host/src/remotes/load-section');

/**
 * Swaps the host's section loader for `replacement` wherever the host imports
 * it (bootstrap starts the loads, RemoteSection renders them), so a variant
 * build runs one loader only.
 */
export function replaceHostLoader(replacement: string): webpack.NormalModuleReplacementPlugin {
  return new webpack.NormalModuleReplacementPlugin(/load-section$/, (resource: { context: string; request: string; contextInfo?: { issuer?: string } }) => {
    // A replacement may wrap the real loader; its own import stays as it is.
    if (resource.contextInfo?.issuer === replacement) return;
    if (path.resolve(resource.context, resource.request) === HOST_LOADER) resource.request = replacement;
  });
}
