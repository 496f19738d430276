import type { IncomingMessage, ServerResponse } from 'node:http';
import { PLAIN_OWN_HEADERS } from '@portico/platform/http';

/** Headers that describe a file's body, wrong on any other answer. */
const FILE_HEADERS = ['accept-ranges', 'cache-control', 'content-encoding', 'content-length', 'content-range', 'content-type', 'etag', 'last-modified'];

/** Forgets what was said about a file that will not be sent after all. */
export function clearFileHeaders(res: ServerResponse): void {
  for (const name of FILE_HEADERS) res.removeHeader(name);
}

/** Adds a field to Vary, once. */
export function appendVary(res: ServerResponse, field: string): void {
  const current = String(res.getHeader('Vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (!current.some((name) => name.toLowerCase() === field.toLowerCase())) current.push(field);
  res.setHeader('Vary', current.join(', '));
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

/** A short text answer written by a raw route (416, 412, 404, 500); the common headers are rawRoute's (stampAnswer). */
export function answerPlain(req: IncomingMessage, res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  const body = `${text}\n`;
  clearFileHeaders(res);
  res.writeHead(status, { ...PLAIN_OWN_HEADERS, 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}
