import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

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
