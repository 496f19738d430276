/** The part of `crypto` a key needs; `randomUUID` is missing outside secure contexts. */
export interface RandomSource {
  getRandomValues(array: Uint8Array<ArrayBuffer>): Uint8Array;
  randomUUID?: () => string;
}

/**
 * A fresh idempotency key for one message: a UUID (36 characters of hex and
 * `-`, inside the server's 8..100 of `A-Za-z0-9_-`).
 *
 * `crypto.randomUUID` exists only in secure contexts, so a phone opening
 * `http://192.168.x.y:8080` has no such function; `getRandomValues` is there
 * in every context, and 16 random bytes written as a version-4 UUID are just
 * as unique.
 */
export function newIdempotencyKey(source: RandomSource = crypto): string {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
