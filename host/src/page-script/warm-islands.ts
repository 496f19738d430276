import { ISLAND_FILES, readIslandFiles, type IslandFiles } from '@portico/contract/island-files';
import { LANGUAGES } from '@portico/contract/languages';
import { readManifest } from '@portico/contract/manifest';
import { resolveRemotes } from '@portico/contract/override';
import type { PageData } from '@portico/contract/page-data';
import type { SectionId } from '@portico/contract/sections';
import type { IslandPlan } from './island-triggers';

/** The module every section exposes. */
const SECTION_MODULE = './section';

/** A script named for one language (`contact-text-id.<hash>.js`): `id`. */
const LANGUAGE_OF_FILE = new RegExp(`[-_.](${LANGUAGES.join('|')})\\.[0-9a-f]+\\.js$`);

/**
 * Asks the browser to fetch `url` into its cache at the lowest priority
 * (`rel=prefetch`), with CORS as webpack's and Module Federation's loaders
 * ask for the same file later (`crossOriginLoading: 'anonymous'`), so the
 * cached answer serves that request. The page's CSP allows it as it allows
 * the script (script-src names the remotes' origins).
 */
function prefetch(doc: Document, url: string): void {
  const link = doc.createElement('link');
  link.rel = 'prefetch';
  link.crossOrigin = 'anonymous';
  link.href = url;
  doc.head.appendChild(link);
}

/**
 * The scripts a section's island loads from its remote, ahead of its
 * remoteEntry.js: the exposed module's own chunks, and of those it loads on demand the ones in
 * this page's language (its texts). The manifest does not say which of the
 * others belong to the copies of the shared modules the host provides
 * (shared-config's zod and packs: measured, never fetched by Contact's
 * island), so those are left to the tap: a chunk guessed wrong costs a
 * fetch no one uses. `hostPacks`: the host's own packs' names (`text-en`),
 * whose remote copies go unused the same way.
 */
function sectionScripts(data: PageData, section: SectionId, search: string, hostPacks: ReadonlySet<string>, islandScripts: boolean): string[] {
  const configured = (data.config as { remotes?: Partial<Record<SectionId, string>> } | null)?.remotes ?? {};
  const url = configured[section];
  const text = data.manifests[section];
  // An override loads the section from elsewhere: its manifest is not the one inlined.
  if (!url || !text || resolveRemotes(configured, data.allowedRemoteOrigins, search).remotes[section] !== url) return [];
  const read = readManifest(text, url);
  if (!('manifest' in read)) return [];
  // Through the islands' entry: the island script, and its texts in this page's language.
  const { island } = read.manifest;
  if (islandScripts) return island ? [island.url, ...island.chunks.filter((script) => LANGUAGE_OF_FILE.exec(script)?.[1] === data.language)] : [];
  const [own = [], onDemand = []] = [read.manifest.exposedScripts[SECTION_MODULE], read.manifest.exposedLazyScripts[SECTION_MODULE]];
  const texts = onDemand.filter((script) => LANGUAGE_OF_FILE.exec(script)?.[1] === data.language && !hostPacks.has(chunkName(script)));
  // Not remoteEntry.js: it is served no-cache (a redeploy is seen at once), and Chromium fetched it again after the tap
  // (measured: 7.5 KB twice); the other chunks open the connection to its origin all the same.
  return [...own, ...texts];
}

/** A chunk file's name without its hash: `text-en` for `…/text-en.0123456789.js`. */
const chunkName = (url: string) => (url.split('/').pop() ?? '').replace(/\.[0-9a-f]+\.js$/, '');

/** The host's list of the scripts its entry loads (island-files.json, beside it); empty when it cannot be read or lists another entry's. */
async function hostList(entry: URL): Promise<IslandFiles> {
  try {
    const response = await fetch(new URL(ISLAND_FILES, entry), { priority: 'low' } as RequestInit);
    if (response.ok) {
      const listed = readIslandFiles(await response.json());
      if (listed.files[0] === entry.pathname.split('/').pop()) return listed;
    }
  } catch {
    // No list (a host built before it, a network fault): the tap fetches them as before.
  }
  return readIslandFiles(undefined);
}

/**
 * Fetches into the browser's cache, at the lowest priority, what the
 * interactive islands the server rendered (of `plans`) will load when a
 * visitor starts one; nothing when there are none: the host's
 * entry and the chunks it loads (React, the federation runtime, the loader,
 * this language's texts), and each section's chunks from the manifest the
 * server inlined. A tap then finds them there instead of
 * fetching them one after another (issue 50). `loading`: a script already
 * being fetched (the host's entry, once an island asked for it), left out.
 * Nothing here runs any of that code.
 */
export async function warmIslands(doc: Document, data: PageData, plans: readonly IslandPlan[], hostScript: string, loading?: string): Promise<void> {
  // Chosen here, not in the page script: the page carries none of this code.
  const sections = plans.filter((plan) => plan.rendered && plan.hydration.mode === 'interactive').map((plan) => plan.section);
  if (sections.length === 0) return;
  const search = doc.defaultView?.location.search ?? '';
  const entry = new URL(hostScript, doc.baseURI);
  const listed = await hostList(entry);
  const hostPacks = new Set(Object.values(listed.packs).flatMap((files) => files.map(chunkName)));
  const remote = sections.flatMap((section) => sectionScripts(data, section, search, hostPacks, listed.islandScripts));
  const host = [...listed.files, ...(listed.packs[data.language] ?? [])].map((file) => new URL(file, entry).href);
  const skip = loading && new URL(loading, doc.baseURI).href;
  for (const url of new Set([entry.href, ...host, ...remote])) if (url !== skip) prefetch(doc, url);
}
