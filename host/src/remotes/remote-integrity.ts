import { type SiteConfig } from '@portico/shared-config';

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
  for (const [id, url] of Object.entries(config.remotes)) {
    const pin = config.remoteIntegrity?.[id];
    if (url && pin) pins.set(url, pin);
  }
  return pins;
}
