import type { FastifyReply } from 'fastify';
import { JSON_TYPE, PLAIN_OWN_HEADERS } from './common-headers';

/**
 * A JSON answer of either server: the body as JSON, never cached, with the
 * headers the caller's server sends (its security headers, and the answer's
 * own: `Allow`, `Retry-After`, `Connection`). The body is serialised here, so
 * what goes out is exactly `JSON.stringify(body)` whatever the route's schema.
 */
export function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): FastifyReply {
  return reply
    .code(status)
    .headers({ 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', ...headers })
    .send(JSON.stringify(body));
}

/**
 * A refusal both servers answer in one shape, `{ error, ...fields }`: the
 * error in words, and what names the fault (`field`, `checks`, `origin`…).
 * A handler throws it; the server's error handler (guardRoutes) answers it.
 */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  get body(): Record<string, unknown> {
    return { error: this.message, ...this.fields };
  }
}

/** A refusal as JSON: `{ error, ...fields }` with its status and headers. */
export function sendRefusal(reply: FastifyReply, refusal: HttpRefusal, headers: Readonly<Record<string, string>> = {}): FastifyReply {
  return sendJson(reply, refusal.status, refusal.body, { ...headers, ...refusal.headers });
}

/** A short text answer: 400, 405, 503… (the common headers come from the root plugin's onSend). */
export function sendPlain(reply: FastifyReply, status: number, text: string, headers: Readonly<Record<string, string>> = {}): FastifyReply {
  return reply
    .code(status)
    .headers({ ...PLAIN_OWN_HEADERS, ...headers })
    .send(`${text}\n`);
}
