import { ISLAND_FILES, type IslandFiles } from '@portico/contract/island-files';
import type { Chunk, ChunkGroup, Compiler } from 'webpack';

const NAME = 'IslandFilesPlugin';

/**
 * What the islands never load, by webpack chunk name: the client-rendered
 * page's visit report (the server-rendered page's is the page script's own)
 * and its start, which reads config.json with the reader (zod) a
 * server-rendered page does without (issue 50). A chunk group of these
 * names is skipped with what only it loads; a chunk it shares with the
 * islands is listed through their group.
 */
const NOT_FOR_ISLANDS = new Set(['web-vitals', 'client-page']);

/**
 * A chunk group made only for a shared module's fallback (the copy a
 * consumer loads when no one provides that module): the host provides every
 * shared module itself, so the runtime never asks for it (measured: React
 * DOM's and shared-config's fallbacks were fetched ahead and never run,
 * 4.0 KB of brotli and two requests).
 */
const onlyFallback = (group: ChunkGroup) => group.origins.length > 0 && group.origins.every(({ module }) => module?.type === 'consume-shared-module');

/** A language pack's chunk (`text-en`): loaded only for the page's language. */
const LANGUAGE_PACK = /^text-([a-z]{2})$/;

/**
 * Writes `island-files.json`: every script the host's entry (`main`, or `islands`) may
 * load, so the server-rendered page can fetch them at low priority after
 * its first paint (`page-script/warm-islands.ts`) and a tap on an island
 * finds them in the browser's cache instead of fetching them one after
 * another. Read from webpack's chunk graph once the files are hashed: the
 * page script is a compilation of its own, built before this one, so it
 * cannot know these names itself.
 */
export class IslandFilesPlugin {
  /** `entry`: the entry whose scripts are listed (`main`, or the islands' build's `islands`). */
  constructor(private readonly entry: string) {}

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tap({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const entry = compilation.entrypoints.get(this.entry);
        if (!entry) return;
        const listed: IslandFiles = { files: [], packs: {}, islandScripts: this.entry !== 'main' };
        const seenGroups = new Set<ChunkGroup>();
        const seenChunks = new Set<Chunk>();
        const visit = (group: ChunkGroup) => {
          if (seenGroups.has(group) || (group.name && NOT_FOR_ISLANDS.has(group.name)) || onlyFallback(group)) return;
          seenGroups.add(group);
          for (const chunk of group.chunks) {
            if (seenChunks.has(chunk) || (chunk.name && NOT_FOR_ISLANDS.has(chunk.name))) continue;
            seenChunks.add(chunk);
            const scripts = [...chunk.files].filter((file) => file.endsWith('.js'));
            const language = chunk.name ? LANGUAGE_PACK.exec(chunk.name)?.[1] : undefined;
            if (language) listed.packs[language] = [...(listed.packs[language] ?? []), ...scripts];
            else listed.files.push(...scripts);
          }
          for (const child of group.childrenIterable) visit(child);
        };
        visit(entry);
        compilation.emitAsset(ISLAND_FILES, new sources.RawSource(JSON.stringify(listed)));
      });
    });
  }
}
