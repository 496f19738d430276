import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Chunk, Compilation, Compiler } from 'webpack';
import { sriOf } from './integrity';

const NAME = 'ChunkIntegrityPlugin';

/** Stands for a chunk's hash until the chunk's bytes are final. */
const placeholder = (kind: 'js' | 'css', id: string | number) => `portico-sri:${kind}:${id}`;
const PLACEHOLDER = /portico-sri:(js|css):([\w-]+)/g;

/** The module source types whose code lands in a chunk's .js or .css file. */
const SOURCE_TYPES = { js: 'javascript', css: 'css/mini-extract' } as const;

/**
 * Subresource Integrity for every chunk a webpack runtime loads by itself.
 *
 * Each runtime (the app's entry, and a remote's remoteEntry.js) gets a table
 * of the SHA-384 of the JS and CSS chunks it may load, and sets `integrity`
 * on the `<script>` and `<link>` it creates, so the browser refuses a chunk
 * altered after the build. The table is filled in after webpack has fixed the
 * chunks' real content hashes, when their bytes are final.
 *
 * Why not webpack-subresource-integrity: Module Federation adds chunks that
 * hold only shared-module lookups and emit no file; that plugin leaves their
 * placeholders unresolved and fails the build.
 */
export class ChunkIntegrityPlugin {
  apply(compiler: Compiler): void {
    const { RuntimeGlobals, RuntimeModule, Template, Compilation: CompilationClass, sources } = compiler.webpack;
    const table = `${RuntimeGlobals.require}.sriHashes`;

    class IntegrityTableRuntimeModule extends RuntimeModule {
      constructor(private readonly chunks: Chunk[]) {
        super('chunk integrity table');
      }

      override generate(): string {
        // Only chunks that emit a file of that kind: Module Federation's
        // lookup-only chunks and JS chunks without CSS are never loaded as one.
        const entries = (kind: 'js' | 'css') =>
          Object.fromEntries(
            this.chunks
              .filter((chunk) => chunk.id !== null && this.chunkGraph?.getChunkModulesIterableBySourceType(chunk, SOURCE_TYPES[kind]))
              .map((chunk) => [chunk.id, placeholder(kind, chunk.id as string | number)]),
          );
        return `${table} = ${JSON.stringify({ js: entries('js'), css: entries('css') })};`;
      }
    }

    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.additionalTreeRuntimeRequirements.tap(NAME, (chunk) => {
        const loaded = [...chunk.getAllAsyncChunks()];
        if (loaded.length > 0) compilation.addRuntimeModule(chunk, new IntegrityTableRuntimeModule(loaded));
      });

      const check = (element: string, kind: 'js' | 'css', chunkId: string) =>
        `if (${table} && ${table}.${kind}[${chunkId}]) ${element}.integrity = ${table}.${kind}[${chunkId}];`;

      compiler.webpack.runtime.LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(NAME, (source) =>
        Template.asString([source, check('script', 'js', 'chunkId')]),
      );
      MiniCssExtractPlugin.getCompilationHooks(compilation).beforeTagInsert.tap(NAME, (source, names) =>
        Template.asString([source, check(names.tag, 'css', names.chunkId)]),
      );

      compilation.hooks.processAssets.tap(
        // After RealContentHashPlugin: every chunk's bytes and name are final.
        { name: NAME, stage: CompilationClass.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1 },
        () => fillTables(compilation, sources.RawSource),
      );
    });
  }
}

function fillTables(compilation: Compilation, RawSource: typeof import('webpack').sources.RawSource): void {
  const hashes = new Map<string, string>();
  for (const chunk of compilation.chunks) {
    if (chunk.id === null) continue;
    for (const file of chunk.files) {
      const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : undefined;
      const asset = kind && compilation.getAsset(file);
      if (kind && asset) hashes.set(placeholder(kind, chunk.id), sriOf(asset.source.buffer()));
    }
  }
  for (const chunk of compilation.chunks) {
    if (!chunk.hasRuntime()) continue;
    for (const file of chunk.files) {
      const asset = compilation.getAsset(file);
      if (!file.endsWith('.js') || !asset) continue;
      const text = asset.source.source().toString();
      if (!text.includes('portico-sri:')) continue;
      compilation.updateAsset(file, new RawSource(text.replace(PLACEHOLDER, (found) => hashes.get(found) ?? '')));
    }
  }
}
