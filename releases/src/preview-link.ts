import { PREVIEW_PARAM } from '@portico/contract/preview';
import { openFields, signFields } from './signed-token';

// A preview's lifetime is the control API's contract (the command checks it too).
export { DEFAULT_PREVIEW_SECONDS, MAX_PREVIEW_SECONDS, MIN_PREVIEW_SECONDS } from '@portico/control-contract';

export interface PreviewGrant {
  release: string;
  expiresAt: Date;
}

/**
 * A compact signed token: base64url of `{"r": release, "e": expiry in
 * seconds}`, a dot, base64url of its HMAC-SHA256. Short enough to paste in
 * a chat; anyone holding it sees that release until it expires, so it says
 * nothing else.
 */
export function signPreview(secret: Buffer, grant: PreviewGrant): string {
  return signFields(secret, { r: grant.release, e: Math.floor(grant.expiresAt.getTime() / 1000) });
}

/** The release a preview token grants, or why it grants nothing (malformed, tampered or expired). */
export function verifyPreview(secret: Buffer, token: string, now: Date = new Date()): PreviewGrant | { problem: string } {
  const opened = openFields(secret, token, 'preview token');
  if ('problem' in opened) return opened;
  const { r: release, e: expires } = opened.fields;
  if (typeof release !== 'string' || typeof expires !== 'number' || !Number.isSafeInteger(expires))
    return { problem: 'malformed: the payload lacks its release or expiry' };
  const expiresAt = new Date(expires * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { problem: `expired at ${expiresAt.toISOString()}` };
  return { release, expiresAt };
}

/**
 * The page's address that opens `token`'s preview: on PORTICO_PUBLIC_URL,
 * else `http://localhost:<port>`; on the previewed `section`'s tab (its
 * anchor), not on the first one, when given.
 */
export function previewUrl(publicUrl: string, token: string, section?: string): string {
  const url = new URL(publicUrl);
  url.pathname = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  url.search = '';
  url.hash = section ?? '';
  url.searchParams.set(PREVIEW_PARAM, token);
  return url.href;
}
