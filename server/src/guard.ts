import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dataHeaders, HttpRefusal, sendRefusal } from '@portico/platform/http';
import { pathOnly, type Logger } from '@portico/platform/logging';
import { answerPlain } from './plain-answer';

/** Answers one request by writing to the response itself (a file, the rendered page); may throw or reject on a fault of the server. */
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * A request that failed unexpectedly: logged once on the request's own
 * logger (its reqId; the path without its query, which may hold a preview
 * token), answered 500 (or cut, if the answer had begun).
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown, log: Logger): void {
  log.error({ err: error, method: req.method, path: pathOnly(req.url) }, `${req.method ?? '?'} ${JSON.stringify(pathOnly(req.url))} failed`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    answerPlain(req, res, 500, 'Internal server error');
  } catch {
    res.destroy();
  }
}

/**
 * A route whose answer is written to the response itself (send's files,
 * the rendered page and its compression): Fastify steps aside, and a
 * failure is answered as any other route's (answerFailure).
 */
export function rawRoute(handle: RawHandler): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    reply.hijack();
    try {
      await handle(request.raw, reply.raw);
    } catch (error) {
      answerFailure(request.raw, reply.raw, error, request.log);
    }
  };
}

/**
 * The page server's answers to what a route throws: a refusal in its own
 * words (`{ error, …}`, JSON with the data headers: the contact form's and
 * the beacon's), a client's fault Fastify found (a status under 500) in a
 * short text, anything else 500, logged once (on the request's logger), while the process goes on
 * serving the others.
 */
export function guardRoutes(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpRefusal) {
      // Fastify closes the connection after any refused body; only a body not waited for (413, 408) needs it.
      if (!('Connection' in error.headers)) reply.removeHeader('connection');
      return sendRefusal(reply, error, dataHeaders());
    }
    reply.hijack();
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) return answerPlain(request.raw, reply.raw, status, STATUS_CODES[status] ?? 'Bad request');
    answerFailure(request.raw, reply.raw, error, request.log);
  });
}
