import { PLAIN_OWN_HEADERS, type Answer } from '@portico/platform/http';

/** `vary` with `field` added, once (a list of names, case-insensitive). */
export function joinVary(vary: string | undefined, field: string): string {
  const names = (vary ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (!names.some((name) => name.toLowerCase() === field.toLowerCase())) names.push(field);
  return names.join(', ');
}

/** Whether an If-None-Match names `etag`: one of a list, weak or strong alike (RFC 9110's weak comparison), or `*`. */
export function matchesEtag(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  // What a browser sends back: the tag itself.
  if (ifNoneMatch === etag) return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return String(ifNoneMatch)
    .split(',')
    .some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** A short text answer (416, 412, 404, 500), with `headers` beside PLAIN_OWN_HEADERS. */
export function plainAnswer(status: number, text: string, headers: Readonly<Record<string, string>> = {}): Answer {
  const body = Buffer.from(`${text}\n`);
  return { status, headers: { ...PLAIN_OWN_HEADERS, 'Content-Length': String(body.length), ...headers }, body };
}
