import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathOnly } from '../logging';
import { COMMON_HEADERS, commonHeadersFor, DATA_OWN_HEADERS, STRICT_TRANSPORT_SECURITY } from './common-headers';
import { HttpRefusal, sendPlain, sendRefusal } from './json-reply';
import { readBody, type BodyLimits } from './read-body';
import { REQUEST_ID_HEADER } from './request-id';
import { visitorOf, type Visitor } from './visitor';

/** How a route takes a body: its limits, and what its handler is given (`text`, or `json`: parsed here). */
export interface RouteBody {
  as: 'text' | 'json';
  /** The limits, or where to read them per request (a setting that can change while serving). */
  limits: BodyLimits | (() => BodyLimits);
  /** JSON only: what a body of nothing but white space is (none: not JSON, 400); the control API's `{}`. */
  empty?: unknown;
  /** JSON only: JSON.parse's reviver, which may refuse a value (HttpRefusal): the control API's NUL check. */
  reviver?: (key: string, value: unknown) => unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who asked, for which address (visitorOf): read once per request, when first asked for. */
    readonly visitor: Visitor;
  }
  interface FastifyContextConfig {
    /** The body this route takes; a route without one refuses a body (415). */
    body?: RouteBody;
    /** How its refusals (HttpRefusal) are worded: `{ error }` as JSON (the default), or a short text. */
    refusals?: 'json' | 'plain';
  }
}

export interface HttpRootOptions {
  /** The server sits behind one proxy it trusts (PORTICO_TRUST_PROXY): the visitor is read from its X-Forwarded-* headers. */
  trustProxy: boolean;
  /**
   * The answer to what a route throws that is neither a refusal nor a
   * client's fault Fastify found, once logged: by default a plain 500.
   */
  failure?: (error: unknown, request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  /** A domain's own errors as the refusals they are (the release store's not-found, conflict, invalid): answered as any refusal. */
  refusalOf?: (error: unknown) => HttpRefusal | undefined;
  /** How a client's fault Fastify found (a status under 500) is worded: a short text (the default), or `{ error }` as JSON (an API's). */
  clientFaults?: 'plain' | 'json';
}

/** The refusal of a route's body that is not JSON (a route may count it: the beacon's `malformed`). */
export class NotJson extends HttpRefusal {}

const VISITOR = Symbol('visitor');
type WithVisitorSlot = FastifyRequest & { [VISITOR]: Visitor | null };

/**
 * The headers every answer carries (the root plugin's onSend sets them on
 * each answer Fastify sends), set on a response written by hand: the common
 * security headers, the request's id, and HSTS to a visitor on https. Only
 * for an answer made before the request's hooks run (the router's refusal of
 * a target it cannot decode: its visitor given); every route answers
 * through `reply.send`.
 */
export function stampAnswer(request: FastifyRequest, res: ServerResponse, visitor: Pick<Visitor, 'protocol'> = request.visitor): void {
  for (const name in COMMON_HEADERS) res.setHeader(name, COMMON_HEADERS[name]!);
  res.setHeader(REQUEST_ID_HEADER, request.id);
  if (visitor.protocol === 'https') res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
}

/**
 * The one body parser: the route's own limits (its config's `body`), read
 * by readBody (strict UTF-8, 413 and 408 closing the connection), and
 * handed to the handler as text or parsed JSON. A route that declares no
 * body takes none.
 */
async function parseBody(request: FastifyRequest, payload: IncomingMessage): Promise<unknown> {
  const body = request.routeOptions.config.body;
  if (!body) throw new HttpRefusal(415, 'no body is taken here');
  const read = await readBody(payload, typeof body.limits === 'function' ? body.limits() : body.limits);
  if (!read.ok) throw new HttpRefusal(read.status, read.error, {}, read.status === 400 ? {} : { Connection: 'close' });
  if (body.as === 'text') return read.text;
  if (body.empty !== undefined && read.text.trim() === '') return body.empty;
  try {
    return JSON.parse(read.text, body.reviver) as unknown;
  } catch (error) {
    if (error instanceof HttpRefusal) throw error;
    throw new NotJson(400, 'the body is not valid JSON');
  }
}

/**
 * The one error handler: a refusal in its route's words (JSON or text,
 * the route's config), a client's fault Fastify found (a status under 500)
 * as a short text, anything else logged once on the request's logger (its
 * reqId; the path without its query, which may hold a preview token) and
 * answered by `failure` (500), or cut if its answer had begun.
 */
function errorHandler({ failure, refusalOf, clientFaults }: HttpRootOptions) {
  return (thrown: FastifyError | HttpRefusal, request: FastifyRequest, reply: FastifyReply) => {
    const error = refusalOf?.(thrown) ?? thrown;
    if (error instanceof HttpRefusal) {
      // Fastify closes the connection after any refused body; only a body not waited for (413, 408) needs it.
      if (!('Connection' in error.headers)) reply.removeHeader('connection');
      if (request.routeOptions.config.refusals === 'plain') return sendPlain(reply, error.status, error.message, error.headers);
      return sendRefusal(reply, error, DATA_OWN_HEADERS);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      if (clientFaults === 'json') return sendRefusal(reply, new HttpRefusal(status, error.message), DATA_OWN_HEADERS);
      return sendPlain(reply, status, STATUS_CODES[status] ?? 'Bad request');
    }
    const path = pathOnly(request.raw.url);
    request.log.error({ err: error, method: request.method, path }, `${request.method} ${JSON.stringify(path)} failed`);
    if (reply.raw.headersSent) return void reply.raw.destroy();
    return failure ? failure(error, request, reply) : sendPlain(reply, 500, 'Internal server error');
  };
}

/**
 * What every server of Portico's has before its routes (the page server's
 * four ports, the control API): the request's visitor as a decoration read
 * when first asked for, the one body parser (per-route limits, `config.body`),
 * the one error handler, and the headers every answer carries set in one
 * onSend hook, so no route that answers through `reply.send` can leave them
 * out. Registered first, at the root (it is not encapsulated).
 */
export function httpRoot(app: FastifyInstance, options: HttpRootOptions, done: (error?: Error) => void): void {
  const { trustProxy } = options;
  // A slot on every request from the start (Fastify keeps one shape per request), filled when first read.
  app.decorateRequest(VISITOR, null);
  app.decorateRequest('visitor', {
    getter(this: FastifyRequest): Visitor {
      const slot = this as WithVisitorSlot;
      return (slot[VISITOR] ??= visitorOf(this.raw, { trustProxy }));
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', parseBody);
  app.setErrorHandler(errorHandler(options));
  app.addHook('onSend', (request, reply, _payload, next) => {
    // Into Fastify's own headers, not the raw response's: Node then writes the head from one object (its fast path).
    // A script or stylesheet goes without the document's own headers: a page fetches a dozen of them.
    const common = commonHeadersFor(reply.getHeader('content-type'));
    for (const name in common) reply.header(name, common[name]);
    reply.header(REQUEST_ID_HEADER, request.id);
    if (request.visitor.protocol === 'https') reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    next();
  });
  done();
}
// Not encapsulated: its decoration, parser, handler and hook are the app's (what fastify-plugin marks).
Object.assign(httpRoot, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'portico-http-root' });
