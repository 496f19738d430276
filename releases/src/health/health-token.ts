import { createHmac } from 'node:crypto';
import type { SectionId } from '@portico/contract/sections';
import { openFields, signFields } from '../signed-token';
import { isSection } from '../scopes';

/**
 * How long a report token is good for. The server signs one per cached page
 * (not per visitor) and signs a fresh one when the page is made again; a
 * page left open all day reports when it is hidden, usually within minutes
 * of loading, so a few hours lose almost nothing and keep a leaked token
 * short-lived.
 */
export const HEALTH_TOKEN_HOURS = 6;

/** What a report token vouches for: the release of each section the server served, and the visitor's cohort when a canary ran. */
export interface HealthGrant {
  releases: Partial<Record<SectionId, string>>;
  cohort?: number;
}

const keys = new WeakMap<Buffer, Buffer>();

/**
 * The key report tokens are signed with, derived from the database's shared
 * secret (ReleaseStore.previewSecret) for this use only: every server on the
 * database verifies every other's tokens, and a report token is never a
 * valid preview link or the reverse, since they are signed with different keys.
 */
function keyOf(secret: Buffer): Buffer {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createHmac('sha256', secret).update('portico health token', 'utf8').digest()));
  return key;
}

/**
 * A report token: base64url of `{"r": releases, "c"?: cohort, "e": expiry
 * in seconds}`, a dot, base64url of its HMAC-SHA256. The page sends it back
 * with its report; a report counts only for the releases it names.
 */
export function signHealthToken(secret: Buffer, note: HealthGrant, expiresAt: Date): string {
  const fields = { r: note.releases, ...(note.cohort === undefined ? {} : { c: note.cohort }), e: Math.floor(expiresAt.getTime() / 1000) };
  return signFields(keyOf(secret), fields);
}

/** The releases (and cohort) a report token vouches for, or why it vouches for nothing (malformed, tampered or expired). */
export function verifyHealthToken(secret: Buffer, token: string, now: Date = new Date()): (HealthGrant & { expiresAt: Date }) | { problem: string } {
  const opened = openFields(keyOf(secret), token, 'report token');
  if ('problem' in opened) return opened;
  const { r: releases, c: cohort, e: expires } = opened.fields;
  if (typeof expires !== 'number' || !Number.isSafeInteger(expires)) return { problem: 'malformed: the payload lacks its expiry' };
  if (typeof releases !== 'object' || releases === null || Array.isArray(releases)) return { problem: 'malformed: the payload lacks its releases' };
  const named: Partial<Record<SectionId, string>> = {};
  for (const [section, release] of Object.entries(releases)) {
    if (!isSection(section) || typeof release !== 'string') return { problem: `malformed: ${JSON.stringify(section)} is not a section with a release` };
    named[section] = release;
  }
  if (cohort !== undefined && !(Number.isInteger(cohort) && (cohort as number) >= 0 && (cohort as number) <= 99))
    return { problem: 'malformed: the cohort is not 0-99' };
  const expiresAt = new Date(expires * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { problem: `expired at ${expiresAt.toISOString()}` };
  return { releases: named, ...(cohort === undefined ? {} : { cohort: cohort as number }), expiresAt };
}
