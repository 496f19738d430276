import path from 'node:path';
import webpack from 'webpack';
import { REPO_ROOT } from './paths';

const HOST_LOADER = path.join(REPO_ROOT, 'host/src/remotes/load-section');
const FEDERATION_LOADER = path.join(REPO_ROOT, 'host/src/remotes/federation-runtime');

/**
 * Swaps the host's section loader for `replacement` wherever the host imports
 * it (bootstrap and the client-rendered page start the loads through
 * federation-runtime's `loadSection` and load-section's `startSections`),
 * so a variant build runs one loader only, and a build without Module
 * Federation carries none of its runtime. A replacement may wrap the real
 * loader: its own imports, and the real loader's own, stay as they are.
 */
export function replaceHostLoader(replacement: string): webpack.NormalModuleReplacementPlugin {
  return new webpack.NormalModuleReplacementPlugin(
    /(load-section|federation-runtime)$/,
    (resource: { context: string; request: string; contextInfo?: { issuer?: string } }) => {
      const issuer = resource.contextInfo?.issuer;
      if (issuer === replacement || issuer === `${FEDERATION_LOADER}.ts`) return;
      const target = path.resolve(resource.context, resource.request);
      if (target === HOST_LOADER || target === FEDERATION_LOADER) resource.request = replacement;
    },
  );
}
