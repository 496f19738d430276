/**
 * The host build's list of the scripts its entry may load
 * (`island-files.json`, written by webpack's IslandFilesPlugin beside the
 * entry), which the server-rendered page reads after its first paint to
 * fetch an island's code before the visitor taps (issue 50).
 */

/** Its file name, beside the host's entry. */
export const ISLAND_FILES = 'island-files.json';

export interface IslandFiles {
  /** The entry's scripts and every script it may load, the entry first. */
  files: string[];
  /** Each language's text pack, by language code. */
  packs: Record<string, string[]>;
  /** Whether this entry loads sections by their island scripts (the islands' build) rather than their remoteEntry.js. */
  islandScripts: boolean;
}

const fileNames = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((file): file is string => typeof file === 'string' && /^[\w.-]+\.js$/.test(file)) : [];

/** The list as the page reads it: only plain script names (no path, no other origin), whatever the file holds. */
export function readIslandFiles(value: unknown): IslandFiles {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const packs = typeof record.packs === 'object' && record.packs !== null ? (record.packs as Record<string, unknown>) : {};
  return {
    files: fileNames(record.files),
    islandScripts: record.islandScripts === true,
    packs: Object.fromEntries(Object.entries(packs).map(([language, files]) => [language, fileNames(files)])),
  };
}
