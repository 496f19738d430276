import { createHash } from 'node:crypto';
import type { Compiler, Module } from 'webpack';

const NAME = 'StableModuleIdsPlugin';

/** Module Federation's generated runtime bootstrap: `node_modules/.federation/entry.<hash>.js`. */
const FEDERATION_ENTRY = /\S*[\\/]node_modules[\\/]\.federation[\\/]entry\.[0-9a-f]+\.js(\|[0-9a-f]+)?/g;

function numberOf(text: string, range: number): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) % range;
}

/**
 * Module ids that depend on the sources alone, so the same sources build to
 * the same bytes in any folder, on any machine, however busy.
 *
 * Webpack's own deterministic ids hash each module's path but settle clashes
 * in "pre-order" of the module graph, and Module Federation adds the shared
 * modules to that graph in the order their files happen to resolve: on a
 * loaded machine two builds of the same sources gave some modules each
 * other's ids. Here clashes are settled in the order of the module names.
 * Names are identifiers with the repository's path taken out, and Module
 * Federation's bootstrap file (named after a hash of absolute paths) stands
 * for itself.
 */
export class StableModuleIdsPlugin {
  constructor(private readonly root: string) {}

  nameOf(module: Module): string {
    return module.identifier().split(this.root).join('').replace(FEDERATION_ENTRY, 'federation-entry');
  }

  apply(compiler: Compiler): void {
    // Every compilation, child ones too (html-webpack-plugin's template).
    compiler.hooks.compilation.tap(NAME, (compilation) => {
      compilation.hooks.moduleIds.tap(NAME, () => {
        const { chunkGraph } = compilation;
        const used = new Set<string>();
        const pending: [Module, string][] = [];
        for (const module of compilation.modules) {
          if (!module.needId) continue;
          const id = chunkGraph.getModuleId(module);
          if (id !== null) used.add(String(id));
          else if (chunkGraph.getNumberOfModuleChunks(module) !== 0) pending.push([module, this.nameOf(module)]);
        }
        pending.sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
        // As webpack does: three digits, more while the space is crowded.
        let range = 1000;
        while (range < pending.length * 20 + used.size) range *= 10;
        for (const [module, name] of pending) {
          for (let salt = 0; ; salt += 1) {
            const id = numberOf(`${name}${salt}`, range);
            if (used.has(String(id))) continue;
            used.add(String(id));
            chunkGraph.setModuleId(module, id);
            break;
          }
        }
      });
    });
  }
}
