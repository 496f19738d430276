import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { lazyRequestLogger, saysDebug } from '../logging';

/** The header a request's id is taken from (behind a trusted proxy) and answered in. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An id a proxy may hand us: nginx's `$request_id` is 32 hex digits; other
 * proxies send UUIDs or base64url. Anything else (longer, spaces, quotes,
 * control characters) is someone's text, not an id, and is replaced.
 */
const SANE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** Whether `value` may be taken as a request's id. */
export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE_ID.test(value);
}

/**
 * This process's part of every id it makes: 8 characters of base64url, 48
 * random bits, so two servers (or one restarted) do not give the same ids.
 */
const PROCESS_PART = randomBytes(6).toString('base64url');
let made = 0;

/**
 * A fresh id: the process's part and a count, at least 12 characters. An id
 * names a request in the logs and records; it is no secret (every answer
 * says it), so it need not be unguessable, and 6 random bytes per request
 * cost 11 µs, a twentieth of a `/config.json` (bench:server).
 */
export function newRequestId(): string {
  made = (made + 1) % Number.MAX_SAFE_INTEGER;
  return PROCESS_PART + made.toString(36).padStart(4, '0');
}

/**
 * The id of a request: the trusted proxy's X-Request-Id when there is one
 * proxy we trust and it sent one sane value, a fresh id otherwise. A client
 * reaching the server directly names nothing in our logs.
 */
export function requestIdOf(req: IncomingMessage, trustProxy: boolean): string {
  const given = trustProxy ? req.headers['x-request-id'] : undefined;
  return isSaneRequestId(given) ? given : newRequestId();
}

/**
 * Fastify's options that make each request's id (its `request.id`, and
 * `reqId` on its log lines), what Fastify logs of it (RequestLines), and its
 * logger, made only when it says something (lazyRequestLogger).
 */
export function requestIdOptions(trustProxy: boolean): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader' | 'logController' | 'childLoggerFactory'> {
  return {
    genReqId: (req) => requestIdOf(req, trustProxy),
    requestIdHeader: false,
    logController: new RequestLines(),
    childLoggerFactory: lazyRequestLogger,
  };
}

/**
 * Every answer carries its request's id in X-Request-Id: set on the raw
 * response before anything else runs, so a refusal in a later hook, a
 * route writing the response itself and Fastify's replies all keep it.
 * Added to the app before its other hooks (call it first).
 */
export function answerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    done();
  });
}

/**
 * What Fastify itself says of each request: one `debug` line per answer
 * (method, path without its query, status, milliseconds), chatter a
 * collector need not pay for at `info`; instead of its two `info` lines (an
 * access log, which nginx's template keeps off too), and a path no route
 * takes named without its query (Fastify's own line names the whole URL).
 */
class RequestLines extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'reqId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!saysDebug(request.log)) return;
    const fields = { req: request.raw, res: { statusCode: reply.statusCode }, ms: Math.round(reply.elapsedTime) };
    request.log.debug(error ? { ...fields, err: error } : fields, 'answered');
  }

  override routeNotFound(request: FastifyRequest): void {
    if (saysDebug(request.log)) request.log.debug({ req: request.raw }, 'no route');
  }

  /**
   * A file's stream cut because its client went away is the client's
   * doing, said at `debug` (Fastify says it at `info`: a line per
   * connection a client drops mid-file); a stream that failed under us at
   * `warn`, as Fastify does.
   */
  override streamError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') return void reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
    if (saysDebug(request.log)) request.log.debug({ res: { statusCode: reply.statusCode } }, 'stream closed prematurely');
  }
}

const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/**
 * The id of the request whose work is running now, for a record it causes
 * (an audit entry): undefined outside one (a scheduled job, a command).
 */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

/**
 * Runs each request's hooks and handler inside its scope (currentRequestId).
 * Entered again before the handler: a body read on the socket's events
 * leaves the scope the first hook entered.
 */
export function scopeRequests(app: FastifyInstance): void {
  const enter = (request: { id: string }, _reply: unknown, done: () => void) => requestScope.run({ requestId: request.id }, done);
  app.addHook('onRequest', enter);
  app.addHook('preHandler', enter);
}
