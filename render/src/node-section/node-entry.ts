import { NodeSectionError } from './node-section-error';
import { isSri } from './sri';

/** Where a section's node build is and the hash it must have. */
export interface NodeEntry {
  url: string;
  integrity: string;
}

interface ManifestMeta {
  publicPath?: unknown;
  ssrRemoteEntry?: { name?: unknown; path?: unknown; type?: unknown; integrity?: unknown };
}

function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/**
 * Reads `metaData.ssrRemoteEntry` from a manifest's text and resolves it
 * against the manifest's URL, as the browser resolves `remoteEntry`
 * (`publicPath: "auto"`: the manifest's own folder). Refuses a node build
 * without a hash, of a kind this loader does not run, or on another origin
 * than the manifest's: the server fetches code only from where the
 * configured manifest is.
 */
export function locateNodeEntry(manifestUrl: string, manifestText: string): NodeEntry {
  let manifestLocation: URL;
  try {
    manifestLocation = new URL(manifestUrl);
  } catch {
    throw new NodeSectionError('origin', `${manifestUrl} is not an absolute URL`);
  }
  if (!isHttpUrl(manifestLocation)) throw new NodeSectionError('origin', `${manifestUrl} is not an http(s) URL`);

  let manifest: { metaData?: ManifestMeta } | null;
  try {
    manifest = JSON.parse(manifestText) as { metaData?: ManifestMeta } | null;
  } catch {
    throw new NodeSectionError('manifest', `${manifestUrl} is not JSON`);
  }
  const meta = manifest?.metaData;
  const entry = meta?.ssrRemoteEntry;
  if (!entry || typeof entry.name !== 'string' || entry.name === '') {
    throw new NodeSectionError('manifest', `${manifestUrl} names no node build (metaData.ssrRemoteEntry)`);
  }
  if (entry.type !== 'commonjs-module') {
    throw new NodeSectionError('manifest', `${manifestUrl}: the node build is of type ${String(entry.type)}, not commonjs-module`);
  }
  if (!isSri(entry.integrity)) {
    throw new NodeSectionError('manifest', `${manifestUrl}: the node build has no sha256/384/512 integrity value`);
  }

  const auto = meta?.publicPath === undefined || meta.publicPath === 'auto' || meta.publicPath === '';
  let url: URL;
  try {
    const base = auto ? new URL('./', manifestLocation) : new URL(String(meta.publicPath), manifestLocation);
    const file = [typeof entry.path === 'string' ? entry.path : '', entry.name].filter(Boolean).join('/');
    url = new URL(file.replace(/^\/+/, ''), base);
  } catch {
    throw new NodeSectionError('manifest', `${manifestUrl}: the node build's path does not make a URL`);
  }
  if (url.origin !== manifestLocation.origin || !isHttpUrl(url)) {
    throw new NodeSectionError('origin', `${manifestUrl}: the node build ${url.href} is not on the manifest's origin ${manifestLocation.origin}`);
  }
  return { url: url.href, integrity: entry.integrity };
}
