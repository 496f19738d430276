/**
 * How a section's island script and the page that loads it meet, without
 * Module Federation's runtime (issue 50): the page puts the modules it
 * shares (React, React DOM, shared-config) on one global before it loads an
 * island script; the script, built with those modules as externals, takes
 * them from there and leaves its exports on another global, under its
 * remote's name. Both sides are built by @portico/webpack's factory and
 * read these names from here.
 */

import { DEFAULT_HYDRATION } from './hydration';
import { readManifest } from './manifest';
import type { PageData } from './page-data';
import type { SectionId } from './sections';

/** `self[ISLAND_SHARED_GLOBAL][module]`: a shared module, as the page provides it. */
export const ISLAND_SHARED_GLOBAL = 'porticoShared';

/** `self[ISLAND_EXPORTS_GLOBAL][remote]`: what an island script exposes (`./section`'s exports). */
export const ISLAND_EXPORTS_GLOBAL = 'porticoIslands';

/** The island script's file name stem in a remote's dist/ (`island.<hash>.js`, its chunks `island-<name>.<hash>.js`). */
export const ISLAND_SCRIPT_STEM = 'island';

/**
 * Whether a server-rendered page can load its sections through the
 * islands' entry: every section of it that hydrates has, in the manifest
 * the server inlined, an island script. Otherwise (a section built before
 * island scripts, or whose manifest the server could not inline) the page
 * loads them all through Module Federation's runtime, as before: one
 * loader per page, one React.
 */
export function pageLoadsIslandScripts(data: Pick<PageData, 'config' | 'sections' | 'manifests' | 'hydration'>): boolean {
  const remotes = (data.config as { remotes?: Partial<Record<SectionId, string>> } | null)?.remotes ?? {};
  return data.sections.every(({ id }) => {
    if ((data.hydration[id] ?? DEFAULT_HYDRATION).mode === 'static') return true;
    const text = data.manifests[id];
    const url = remotes[id];
    if (text === undefined || url === undefined) return false;
    const read = readManifest(text, url);
    return 'manifest' in read && read.manifest.island !== undefined;
  });
}
