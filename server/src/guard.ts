import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stampAnswer } from '@portico/platform/http';
import { pathOnly, type Logger } from '@portico/platform/logging';
import { answerPlain } from './plain-answer';

/** Answers one request by writing to the response itself (a file, the rendered page); may throw or reject on a fault of the server. */
export type RawHandler = (request: FastifyRequest, res: ServerResponse) => Promise<void>;

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
 * the rendered page and its compression): Fastify steps aside, so the
 * headers every answer carries are set here first (stampAnswer, as the root
 * plugin's onSend sets them on every other answer), and a failure is
 * answered as any other route's (answerFailure).
 */
export function rawRoute(handle: RawHandler): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    reply.hijack();
    stampAnswer(request, reply.raw);
    try {
      await handle(request, reply.raw);
    } catch (error) {
      answerFailure(request.raw, reply.raw, error, request.log);
    }
  };
}
