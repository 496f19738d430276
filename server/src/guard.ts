import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS, writeAnswer } from '@portico/platform/http';
import { pathOnly, type Logger } from '@portico/platform/logging';
import { plainAnswer } from './plain-answer';

/**
 * A request to a server Fastify does not run (the test's and bench's bare
 * file servers) that failed unexpectedly: logged once on the request's own
 * logger (the path without its query, which may hold a preview token),
 * answered 500 (or cut, if the answer had begun). Fastify's routes have the
 * root plugin's error handler instead.
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown, log: Logger): void {
  log.error({ err: error, method: req.method, path: pathOnly(req.url) }, `${req.method ?? '?'} ${JSON.stringify(pathOnly(req.url))} failed`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    writeAnswer(res, plainAnswer(500, 'Internal server error'), COMMON_HEADERS);
  } catch {
    res.destroy();
  }
}
