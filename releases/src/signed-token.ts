import { createHmac, timingSafeEqual } from 'node:crypto';

// The one format of the tokens the servers sign (preview links, the page's
// report token): base64url of a small JSON object, a dot, base64url of its
// HMAC-SHA256. Each kind is signed with a key of its own, so one is never
// valid as the other.

const BASE64URL = /^[A-Za-z0-9_-]+$/;

const macOf = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload, 'utf8').digest();

export function signFields(key: Buffer, fields: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
  return `${payload}.${macOf(key, payload).toString('base64url')}`;
}

/** The signed object, or why it cannot be trusted (`kind` names the token in the problem). */
export function openFields(key: Buffer, token: string, kind: string): { fields: Record<string, unknown> } | { problem: string } {
  const parts = token.split('.');
  if (parts.length !== 2 || !parts.every((part) => BASE64URL.test(part))) return { problem: `malformed: not a ${kind}` };
  const [payload, mac] = parts as [string, string];
  const given = Buffer.from(mac, 'base64url');
  const expected = macOf(key, payload);
  // The MAC first, in constant time: nothing of an unsigned payload is read.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'tampered: the signature does not match' };
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { problem: 'malformed: the payload is not JSON' };
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return { problem: 'malformed: the payload is not an object' };
  return { fields: fields as Record<string, unknown> };
}
