import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { PLAIN_OWN_HEADERS } from '@portico/platform/http';

/**
 * An answer made by the code behind a route (a file, the page, a
 * stylesheet), sent by the route through Fastify (sendAnswer): the root
 * plugin's onSend then adds the headers every answer carries, so none can
 * leave them out. Its headers are made once per served answer where they
 * can be (a cached page's, a kept file's) and never changed afterwards.
 */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** None: a 304, or a HEAD's answer. A stream: a file too big to hold (send's). */
  body?: Buffer | Readable;
}

/** Sends `answer` through Fastify (its onSend hooks run, the root plugin's included). */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * Writes `answer` on a response Fastify does not own (the control API's
 * console files, the bench's bare servers), with `common` before its own
 * headers: what the root plugin's onSend adds to an answer Fastify sends.
 */
export function writeAnswer(res: ServerResponse, answer: Answer, common: Readonly<Record<string, string>> = {}): void {
  res.writeHead(answer.status, { ...common, ...answer.headers });
  const { body } = answer;
  if (body === undefined || Buffer.isBuffer(body)) res.end(body);
  else body.pipe(res);
}

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
