import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { sendPlain, sendAnswer, type Answer } from '@portico/platform/http';
import type { Handler } from '../../static-files';

/** The small page of every 404, on every app. */
export const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>Nothing here. <a href="/">Go to the home page</a>.</p></html>';

/** Headers of an app's HTML, per request (the host page's policy is made from the config.json the visitor gets). */
export type PageHeaders = (request: FastifyRequest, search: string) => Promise<Record<string, string>>;

export interface AppFilesOptions {
  /** The app's dist/, each file under the exact name it was built with (staticFiles). */
  files: Handler;
  /** The 404 page's headers: those of the app's HTML. */
  pageHeaders: PageHeaders;
}

const NOT_FOUND_BODY = Buffer.from(NOT_FOUND_PAGE);

/** The app's 404 page, with the headers of its HTML. */
export async function notFoundAnswer(request: FastifyRequest, pageHeaders: PageHeaders): Promise<Answer> {
  const headers = await pageHeaders(request, '');
  return {
    status: 404,
    headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(NOT_FOUND_BODY.length), 'Cache-Control': 'no-cache' },
    body: NOT_FOUND_BODY,
  };
}

/** 405 with `Allow`, answered before a body is read. */
export function refuseMethod(reply: FastifyReply, allow = 'GET, HEAD'): void {
  void sendPlain(reply, 405, 'Method not allowed', { Allow: allow });
}

/** Every method Fastify routes but `allowed`. */
export function otherMethods(app: FastifyInstance, allowed: readonly string[]): string[] {
  return app.supportedMethods.filter((method) => !allowed.includes(method));
}

/**
 * Every app's files: any path no other route takes, as built in its dist/
 * (else the 404 page) to GET and HEAD; 405 with `Allow` to any other
 * method, before its body is read.
 */
export const appFiles: FastifyPluginCallback<AppFilesOptions> = (app, { files, pageHeaders }, done) => {
  const serveFile = async (request: FastifyRequest, reply: FastifyReply) => sendAnswer(reply, await files(request, () => notFoundAnswer(request, pageHeaders)));
  const unmatched = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuseMethod(reply);
    return serveFile(request, reply);
  };
  app.route({ method: ['GET', 'HEAD'], url: '/*', exposeHeadRoute: false, handler: serveFile });
  app.route({ method: otherMethods(app, ['GET', 'HEAD']), url: '/*', onRequest: (_request, reply) => refuseMethod(reply), handler: () => undefined });
  // A method Fastify does not route (Node's parser takes WebDAV's too).
  app.setNotFoundHandler(unmatched);
  done();
};
