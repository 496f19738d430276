/**
 * The one reader of a remote's `mf-manifest.json`: the browser's loader, the
 * shell worker, the front server's manifest watcher, the section loader on
 * the server and `npm run check-remotes` all read a manifest through it, and
 * it is the only module that knows the manifest's shape. It parses the text
 * once and makes every URL in it absolute once (as Podium's manifest
 * resolver does), so no two readers can disagree on where a file is.
 */

import { readHydration, type Hydration } from './hydration';

/** Ours are a few KB; a manifest of megabytes is broken or hostile, and a phone must not download it. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

/** Why a manifest over the cap is refused, whoever counted its bytes (the reader, or a download cut short). */
export const MANIFEST_TOO_LARGE = `is over ${MANIFEST_MAX_BYTES / 1024 / 1024} MB, too large to be a manifest`;

/** A module the remote shares, as its manifest declares it. */
export interface ManifestShare {
  name: string;
  requiredVersion?: string;
  singleton: boolean;
}

/** Where a section's node build (server rendering) is, and the hash it must have. */
export interface NodeEntry {
  url: string;
  integrity: string;
}

/** Why a manifest's node build cannot be used: a problem of the manifest, or code on another origin. */
export interface NodeEntryProblem {
  refusal: 'manifest' | 'origin';
  problem: string;
}

/** A manifest, read: every URL absolute. */
export interface Manifest {
  /** The manifest's own URL. */
  url: string;
  /** The remote's federation name (`portico_contact`), if it gives one. */
  name: string | undefined;
  /** What the build says of itself (`metaData.buildInfo`), for reports. */
  build: { version?: string; id?: string };
  /** The modules it exposes (`./section`, …). */
  exposes: string[];
  shared: ManifestShare[];
  /** remoteEntry.js, and the hash the manifest gives it (if any). */
  entry: { url: string; integrity?: string };
  /** Every script it names: the entry, the exposed modules' chunks, the shared modules' chunks. */
  scripts: string[];
  /** Every file with a hash, by its absolute URL, the entry included. */
  hashes: ReadonlyMap<string, string>;
  /** The stylesheets of each exposed module, by its key. */
  stylesheets: Readonly<Record<string, readonly string[]>>;
  /** The scripts of each exposed module, by its key: its own chunks (`assets.js.sync`), and those it may load on demand (`async`). */
  exposedScripts: Readonly<Record<string, readonly string[]>>;
  exposedLazyScripts: Readonly<Record<string, readonly string[]>>;
  /** The node build for server rendering, or why there is none to run. */
  nodeEntry: NodeEntry | NodeEntryProblem;
  /** How the section hydrates (`metaData.hydration`; the default when it declares nothing). */
  hydration: Hydration;
  /**
   * The section's island script (`metaData.island`): `./section` built for a
   * page that provides the shared modules itself, loaded without Module
   * Federation's runtime (issue 50); with its hash, and the chunks it may
   * load (its texts). Undefined for a build without one.
   */
  island?: IslandScript;
}

/** A section's island script, read: its URL and hash, and the chunks it may load. */
export interface IslandScript {
  url: string;
  integrity: string;
  chunks: string[];
}

export type ManifestReading = { manifest: Manifest } | { problem: string };

const SRI = /^(sha256|sha384|sha512)-[A-Za-z0-9+/]+={0,2}$/;

/** Whether `value` is one Subresource Integrity value we check: `sha256-`, `sha384-` or `sha512-` and base64. */
export function isSri(value: unknown): value is string {
  return typeof value === 'string' && SRI.test(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringAt(record: unknown, ...path: string[]): string | undefined {
  let node = record;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return typeof node === 'string' ? node : undefined;
}

function strings(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

function exposeKey(expose: Record<string, unknown>): string | undefined {
  if (typeof expose.path === 'string' && expose.path) return expose.path;
  return typeof expose.name === 'string' && expose.name ? `./${expose.name}` : undefined;
}

function assetScripts(items: Record<string, unknown>[]): string[] {
  return items.flatMap((item) => {
    const js = isRecord(item.assets) && isRecord(item.assets.js) ? item.assets.js : {};
    return [...strings(js.sync), ...strings(js.async)];
  });
}

const isHttp = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

/**
 * The folder a manifest's files are under: its `publicPath`, or with `auto`
 * (what our builds write) the manifest's own folder, as Module Federation's
 * runtime derives it. A relative publicPath is refused: the runtime would
 * resolve it against the page, a server against nothing, so no reader could
 * know where the files are.
 */
function filesBase(meta: Record<string, unknown>, manifestUrl: URL): URL | string {
  const publicPath = meta.publicPath;
  if (publicPath === undefined || publicPath === 'auto' || publicPath === '') return new URL('./', manifestUrl);
  if (typeof publicPath !== 'string') return 'gives a publicPath that is not text';
  let base: URL;
  try {
    base = new URL(publicPath);
  } catch {
    return `gives a relative publicPath ("${publicPath}"): it must be "auto" or an absolute http(s) URL`;
  }
  return isHttp(base) ? base : `gives a publicPath that is not an http(s) URL ("${publicPath}")`;
}

/** `metaData.ssrRemoteEntry`, checked: a hash, a kind the server runs, and the manifest's own origin. */
function nodeEntryOf(meta: Record<string, unknown>, base: URL, manifestUrl: URL): NodeEntry | NodeEntryProblem {
  const href = manifestUrl.href;
  const entry = meta.ssrRemoteEntry;
  if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name === '') {
    return { refusal: 'manifest', problem: `${href} names no node build (metaData.ssrRemoteEntry)` };
  }
  if (entry.type !== 'commonjs-module') {
    return { refusal: 'manifest', problem: `${href}: the node build is of type ${String(entry.type)}, not commonjs-module` };
  }
  if (!isSri(entry.integrity)) return { refusal: 'manifest', problem: `${href}: the node build has no sha256/384/512 integrity value` };
  let url: URL;
  try {
    url = new URL([typeof entry.path === 'string' ? entry.path : '', entry.name].filter(Boolean).join('/').replace(/^\/+/, ''), base);
  } catch {
    return { refusal: 'manifest', problem: `${href}: the node build's path does not make a URL` };
  }
  // The server fetches code only from where the configured manifest is.
  if (url.origin !== manifestUrl.origin || !isHttp(url)) {
    return { refusal: 'origin', problem: `${href}: the node build ${url.href} is not on the manifest's origin ${manifestUrl.origin}` };
  }
  return { url: url.href, integrity: entry.integrity };
}

/**
 * `metaData.island`, if it names a file with a hash under the manifest's
 * files (a name that makes a URL on another origin is no island: the page
 * would run it from there); its chunks are hashed in `metaData.integrity`
 * like every other file.
 */
function islandOf(meta: Record<string, unknown>, base: URL, absolute: (file: string) => string): IslandScript | undefined {
  const island = meta.island;
  if (!isRecord(island) || typeof island.name !== 'string' || island.name === '' || !isSri(island.integrity)) return undefined;
  const url = absolute(island.name);
  const chunks = strings(island.chunks).map(absolute);
  if ([url, ...chunks].some((file) => new URL(file).origin !== base.origin)) return undefined;
  return { url, integrity: island.integrity, chunks };
}

/** The UTF-8 size of a text, counted here: not every environment that bundles the contract has TextEncoder. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** Reads a manifest's bytes or text, fetched from `manifestUrl`; or says why it is no manifest a page can load. */
export function readManifest(source: Uint8Array | string, manifestUrl: string): ManifestReading {
  const size = typeof source === 'string' ? utf8Length(source) : source.byteLength;
  if (size > MANIFEST_MAX_BYTES) return { problem: MANIFEST_TOO_LARGE };
  let location: URL;
  try {
    location = new URL(manifestUrl);
  } catch {
    return { problem: `is not at an absolute URL (${manifestUrl})` };
  }
  if (!isHttp(location)) return { problem: `is not at an http(s) URL (${manifestUrl})` };

  let raw: unknown;
  try {
    raw = JSON.parse(typeof source === 'string' ? source : new TextDecoder().decode(source));
  } catch {
    return { problem: 'is not JSON' };
  }
  if (!isRecord(raw)) return { problem: 'is not a Module Federation manifest (not a JSON object)' };
  const missing = [!isRecord(raw.metaData) && 'metaData', !Array.isArray(raw.exposes) && 'exposes', !Array.isArray(raw.shared) && 'shared'].filter(Boolean);
  if (missing.length > 0) return { problem: `is not a Module Federation manifest (no ${missing.join(', ')})` };
  const meta = raw.metaData as Record<string, unknown>;

  const base = filesBase(meta, location);
  if (typeof base === 'string') return { problem: base };
  const hydration = readHydration(meta.hydration);
  if ('problem' in hydration) return { problem: `gives a metaData.hydration the page cannot follow: ${hydration.problem}` };
  const absolute = (file: string) => new URL(file.replace(/^\/+/, ''), base).href;

  const exposeItems = (raw.exposes as unknown[]).filter(isRecord);
  const sharedItems = (raw.shared as unknown[]).filter(isRecord);
  const entryPath = stringAt(meta, 'remoteEntry', 'path') ?? '';
  const entryUrl = absolute(`${entryPath ? entryPath.replace(/\/?$/, '/') : ''}${stringAt(meta, 'remoteEntry', 'name') ?? 'remoteEntry.js'}`);
  const entryIntegrity = stringAt(meta, 'remoteEntry', 'integrity');

  const hashes = new Map<string, string>();
  if (isRecord(meta.integrity)) {
    for (const [file, hash] of Object.entries(meta.integrity)) if (typeof hash === 'string') hashes.set(absolute(file), hash);
  }
  if (entryIntegrity) hashes.set(entryUrl, entryIntegrity);
  const island = islandOf(meta, base, absolute);
  if (island) hashes.set(island.url, island.integrity);

  const stylesheets: Record<string, string[]> = {};
  const exposedScripts: Record<string, string[]> = {};
  const exposedLazyScripts: Record<string, string[]> = {};
  const exposes: string[] = [];
  for (const item of exposeItems) {
    const key = exposeKey(item);
    if (key === undefined) continue;
    exposes.push(key);
    const css = isRecord(item.assets) && isRecord(item.assets.css) ? item.assets.css.sync : undefined;
    stylesheets[key] = strings(css).map(absolute);
    const js = isRecord(item.assets) && isRecord(item.assets.js) ? item.assets.js : {};
    exposedScripts[key] = strings(js.sync).map(absolute);
    exposedLazyScripts[key] = strings(js.async).map(absolute);
  }

  return {
    manifest: {
      url: location.href,
      name: typeof raw.name === 'string' ? raw.name : undefined,
      build: { version: stringAt(meta, 'buildInfo', 'buildVersion'), id: stringAt(meta, 'buildInfo', 'buildId') },
      exposes,
      shared: sharedItems
        .filter((item) => typeof item.name === 'string')
        .map((item) => ({
          name: item.name as string,
          requiredVersion: typeof item.requiredVersion === 'string' && item.requiredVersion !== '' ? item.requiredVersion : undefined,
          singleton: item.singleton === true,
        })),
      entry: { url: entryUrl, integrity: entryIntegrity },
      scripts: [entryUrl, ...[...assetScripts(exposeItems), ...assetScripts(sharedItems)].map(absolute), ...(island ? [island.url, ...island.chunks] : [])],
      hashes,
      stylesheets,
      exposedScripts,
      exposedLazyScripts,
      nodeEntry: nodeEntryOf(meta, base, location),
      hydration,
      island,
    },
  };
}
