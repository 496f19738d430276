import { createHmac, randomBytes } from 'node:crypto';
import type { SectionId } from '@portico/contract/sections';
import { openFields, signFields } from '../signed-token';
import { isSection } from '../scopes';

/**
 * How long a visit id may be reported with. The page asks for it after its
 * first paint and reports when it is hidden: most visits end within minutes;
 * an id is remembered (across every server, to be counted once) until it
 * expires, so its life bounds that record.
 */
export const VISIT_ID_MS = 60 * 60_000;

/** What a visit id vouches for: the releases the page was served and, per section in a canary, that canary's number. */
export interface VisitGrant {
  releases: Partial<Record<SectionId, string>>;
  /** Per section that ran a canary when the id was issued: the canary's number (the report counts for that canary only). */
  canaries: Partial<Record<SectionId, number>>;
}

export interface OpenedVisit extends VisitGrant {
  /** The id's random part, in hex: what the shared record of counted ids keeps. */
  nonce: string;
  expiresAt: Date;
}

const keys = new WeakMap<Buffer, Buffer>();

/** The key visit ids are signed with, derived from the database's shared secret for this use only (never a report token's or a preview link's). */
function keyOf(secret: Buffer): Buffer {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createHmac('sha256', secret).update('portico visit id', 'utf8').digest()));
  return key;
}

/**
 * A single-use visit id: `{"r": releases, "k"?: canaries, "n": 16 random
 * bytes, "e": expiry in seconds}` signed as every server token is. The
 * server issues one per page it served (POST /api/visit); the beacon counts
 * a report only with one, once.
 */
export function signVisitId(secret: Buffer, grant: VisitGrant, expiresAt: Date): string {
  const canaries = Object.keys(grant.canaries).length > 0 ? { k: grant.canaries } : {};
  return signFields(keyOf(secret), { r: grant.releases, ...canaries, n: randomBytes(16).toString('hex'), e: Math.floor(expiresAt.getTime() / 1000) });
}

/** What a visit id vouches for, or why it vouches for nothing (malformed, tampered or expired). */
export function verifyVisitId(secret: Buffer, id: string, now: Date = new Date()): OpenedVisit | { problem: string } {
  const opened = openFields(keyOf(secret), id, 'visit id');
  if ('problem' in opened) return opened;
  const { r: releases, k: canaries = {}, n: nonce, e: expires } = opened.fields;
  if (typeof expires !== 'number' || !Number.isSafeInteger(expires)) return { problem: 'malformed: no expiry' };
  if (typeof nonce !== 'string' || !/^[0-9a-f]{32}$/.test(nonce)) return { problem: 'malformed: no random part' };
  const grant: VisitGrant = { releases: {}, canaries: {} };
  for (const [field, into, valid] of [
    [releases, grant.releases, (value: unknown) => typeof value === 'string'],
    [canaries, grant.canaries, (value: unknown) => Number.isSafeInteger(value)],
  ] as const) {
    if (typeof field !== 'object' || field === null || Array.isArray(field)) return { problem: 'malformed: not an object of sections' };
    for (const [section, value] of Object.entries(field)) {
      if (!isSection(section) || !valid(value)) return { problem: `malformed: ${JSON.stringify(section)}` };
      (into as Record<string, unknown>)[section] = value;
    }
  }
  const expiresAt = new Date(expires * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { problem: `expired at ${expiresAt.toISOString()}` };
  return { ...grant, nonce, expiresAt };
}
