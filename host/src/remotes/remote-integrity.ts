import { SECTION_IDS, type SiteConfig } from '@portico/shared-config';

const ALGORITHMS = { sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' } as const;

function base64(bytes: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
}

/**
 * Whether `bytes` hash to the Subresource Integrity value `expected`
 * (`sha384-<base64>`). Web Crypto exists only in secure contexts (HTTPS, or
 * localhost), so on plain HTTP a pin cannot be checked and this throws.
 */
export async function sriMatches(
  bytes: BufferSource,
  expected: string,
  subtle: Pick<SubtleCrypto, 'digest'> | null = globalThis.crypto?.subtle ?? null,
): Promise<boolean> {
  const dash = expected.indexOf('-');
  const algorithm = ALGORITHMS[expected.slice(0, dash) as keyof typeof ALGORITHMS];
  if (!algorithm) throw new Error(`"${expected}" is not a sha256, sha384 or sha512 integrity value`);
  if (!subtle) throw new Error('this page is not a secure context (HTTPS), so the browser cannot compute hashes');
  return base64(await subtle.digest(algorithm, bytes)) === expected.slice(dash + 1);
}

/** Each configured manifest URL and the hash config.json pins it to. */
export function manifestPins(config: Pick<SiteConfig, 'remotes' | 'remoteIntegrity'>): Map<string, string> {
  const pins = new Map<string, string>();
  for (const id of SECTION_IDS) {
    const url = config.remotes[id];
    const pin = config.remoteIntegrity?.[id];
    if (url && pin) pins.set(url, pin);
  }
  return pins;
}

interface ManifestMeta {
  publicPath?: string;
  remoteEntry?: { name?: string; path?: string; integrity?: string };
  integrity?: Record<string, unknown>;
}

export interface ManifestHashes {
  /** Where Module Federation will load remoteEntry.js from. */
  entryUrl: string;
  entryIntegrity?: string;
  /** Every file with a hash in the manifest, by its absolute URL, the entry included. */
  byUrl: Map<string, string>;
}

/**
 * The hashes a manifest from our builds carries (`metaData.remoteEntry
 * .integrity` and `metaData.integrity`), keyed by the URLs Module Federation
 * will load those files from: `publicPath: "auto"` means the manifest's own
 * folder, as the runtime derives it.
 */
export function manifestHashes(manifest: unknown, manifestUrl: string): ManifestHashes | undefined {
  const meta = (manifest as { metaData?: ManifestMeta } | null)?.metaData;
  const entry = meta?.remoteEntry;
  if (!meta || !entry?.name) return undefined;
  const auto = meta.publicPath === undefined || meta.publicPath === 'auto' || meta.publicPath === '';
  let base: URL;
  try {
    base = new URL(auto ? manifestUrl.replace(/[?#].*$/, '').replace(/\/[^/]*$/, '/') : (meta.publicPath as string), globalThis.location?.href);
  } catch {
    return undefined;
  }
  const urlOf = (file: string) => new URL(file.replace(/^\/+/, ''), base).href;
  const entryUrl = urlOf([entry.path, entry.name].filter(Boolean).join('/'));
  const byUrl = new Map<string, string>();
  for (const [file, hash] of Object.entries(meta.integrity ?? {})) {
    if (typeof hash === 'string') byUrl.set(urlOf(file), hash);
  }
  if (entry.integrity) byUrl.set(entryUrl, entry.integrity);
  return { entryUrl, entryIntegrity: entry.integrity, byUrl };
}
