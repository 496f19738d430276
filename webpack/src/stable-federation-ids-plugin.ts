import { createHash } from 'node:crypto';
import type { Compiler } from 'webpack';

const NAME = 'StableFederationIdsPlugin';

/** Module Federation's generated runtime entry: `node_modules/.federation/entry.<hash>.js`. */
const FEDERATION_ENTRY = /\S*[\\/]node_modules[\\/]\.federation[\\/]entry\.[0-9a-f]+\.js(\|[0-9a-f]+)?/g;

/**
 * Module Federation writes its runtime bootstrap to a file named after a hash
 * of its source, and that source holds absolute paths (the bundler runtime,
 * runtime plugins). Webpack's deterministic module ids come from module
 * identifiers, so the same sources built in another folder would get other
 * ids and other bytes. The modules naming that file (the bootstrap itself and
 * a remote's container entry) get ids from their identifier with the file's
 * path left out, which keeps builds byte-identical wherever the repository is
 * checked out.
 */
export class StableFederationIdsPlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.beforeModuleIds.tap(NAME, (modules) => {
        for (const module of modules) {
          const identifier = module.identifier();
          if (!identifier.includes('.federation')) continue;
          const stable = identifier.replace(FEDERATION_ENTRY, 'federation-entry');
          if (stable === identifier) continue;
          const digest = createHash('sha256').update(stable).digest('hex').slice(0, 8);
          compilation.chunkGraph.setModuleId(module, `mf-${digest}`);
        }
      });
    });
  }
}
