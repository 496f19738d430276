import { createHmac, timingSafeEqual } from 'node:crypto';
import { PREVIEW_PARAM } from '@portico/contract/preview';

/** A preview link lasts this long unless its maker says otherwise: a working day and a night, for a review across time zones. */
export const DEFAULT_PREVIEW_SECONDS = 24 * 60 * 60;

/** The longest a preview link may last: a link is a capability, and one that never expires is a second production. */
export const MAX_PREVIEW_SECONDS = 30 * 24 * 60 * 60;


export interface PreviewGrant {
  release: string;
  expiresAt: Date;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

const macOf = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload, 'utf8').digest();

/**
 * A compact signed token: base64url of `{"r": release, "e": expiry in
 * seconds}`, a dot, base64url of its HMAC-SHA256. Short enough to paste in
 * a chat; anyone holding it sees that release until it expires, so it says
 * nothing else.
 */
export function signPreview(secret: Buffer, grant: PreviewGrant): string {
  const payload = Buffer.from(JSON.stringify({ r: grant.release, e: Math.floor(grant.expiresAt.getTime() / 1000) }), 'utf8').toString('base64url');
  return `${payload}.${macOf(secret, payload).toString('base64url')}`;
}

/** The release a preview token grants, or why it grants nothing (malformed, tampered or expired). */
export function verifyPreview(secret: Buffer, token: string, now: Date = new Date()): PreviewGrant | { problem: string } {
  const parts = token.split('.');
  if (parts.length !== 2 || !parts.every((part) => BASE64URL.test(part))) return { problem: 'malformed: not a preview token' };
  const [payload, mac] = parts as [string, string];
  const given = Buffer.from(mac, 'base64url');
  const expected = macOf(secret, payload);
  // The MAC first, in constant time: nothing of an unsigned payload is read.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'tampered: the signature does not match' };
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { problem: 'malformed: the payload is not JSON' };
  }
  const { r: release, e: expires } = (fields ?? {}) as { r?: unknown; e?: unknown };
  if (typeof release !== 'string' || typeof expires !== 'number' || !Number.isSafeInteger(expires)) return { problem: 'malformed: the payload lacks its release or expiry' };
  const expiresAt = new Date(expires * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { problem: `expired at ${expiresAt.toISOString()}` };
  return { release, expiresAt };
}

/** The page's address that opens `token`'s preview: on PORTICO_PUBLIC_URL, else `http://localhost:<port>`. */
export function previewUrl(publicUrl: string, token: string): string {
  const url = new URL(publicUrl);
  url.pathname = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  url.searchParams.set(PREVIEW_PARAM, token);
  return url.href;
}

/** The page's public address: PORTICO_PUBLIC_URL, or `http://localhost:<port>` (the page's port). */
export function publicUrlOf(env: Readonly<Record<string, string | undefined>>, port: number): string {
  const given = env.PORTICO_PUBLIC_URL?.trim();
  if (given) {
    if (!URL.canParse(given) || !['http:', 'https:'].includes(new URL(given).protocol)) throw new Error(`PORTICO_PUBLIC_URL must be an http(s) URL, not ${JSON.stringify(given)}`);
    return given;
  }
  return `http://localhost:${port}`;
}
