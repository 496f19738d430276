import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { COMMON_HEADERS, PLAIN_HEADERS, sendAnswer, type Answer } from '@portico/platform/http';
import { pathOnly } from '@portico/platform/logging';

/**
 * The console's policy: its own scripts, styles, images and API only; no
 * inline script or style element, no other origin, never framed.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of the console's page (index.html), beside those every answer has. */
const CONSOLE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON_HEADERS,
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/**
 * What serves a built folder: the page server's file server (`staticFiles`,
 * with its precompressed copies, ETags and ranges), handed in by the server
 * that serves the console, so the console's files are served as the apps'
 * are without this package owning a second file server.
 */
export type FolderFiles = (
  dir: string,
  options: { crossOrigin: false; pageHeaders: () => Promise<Record<string, string>> },
) => (request: { raw: IncomingMessage }, next: () => Answer) => Promise<Answer>;

/** The console's files: the answer to a request for one, or undefined when there is none (404). */
export type ConsoleFiles = (request: { raw: IncomingMessage }) => Promise<Answer | undefined>;

/**
 * The operator console's built files (console/dist), for the control port
 * only: a file the build made, or index.html for any other path without a
 * file extension (the console's own routes, e.g. /sections/contact), or
 * undefined when there is neither (404). The console's CSP on the page.
 */
export function consoleFiles(dist: string, folderFiles: FolderFiles): ConsoleFiles {
  const files = folderFiles(dist, { crossOrigin: false, pageHeaders: () => Promise.resolve({ ...CONSOLE_PAGE_HEADERS }) });
  return async (request) => {
    const req = request.raw;
    let served = true;
    const notFound = () => {
      served = false;
      return { status: 404, headers: {} };
    };
    const answer = await files(request, notFound);
    if (served) return answer;
    // The target after the origin, never read as an authority (`//a:x` is a path): one no URL parser takes is no file.
    const target = req.url ?? '/';
    const pathname = target.startsWith('/') ? URL.parse(`http://console.invalid${target}`)?.pathname : undefined;
    if (pathname === undefined) return undefined;
    if (/\.[A-Za-z0-9]+$/.test(pathname)) return undefined;
    served = true;
    // The folder server reads the path from the request: the page's, for this one call only.
    const asked = req.url;
    req.url = '/index.html';
    const page = await files(request, notFound).finally(() => {
      req.url = asked;
    });
    return served ? page : undefined;
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The console's files route: it takes every GET and HEAD no other route
     * takes, so the control API asks no token for it outside /api/ (a page
     * and its scripts, nothing of the API) and reads a path under /api/ it
     * caught as no route (404, or 405 with Allow).
     */
    consoleFiles?: boolean;
  }
}

/**
 * The console's files as a route of their own (every GET and HEAD path no
 * other route takes), answered through Fastify like any route's: the file,
 * the page for a console route, else a plain 404. A file that fails to read
 * is logged and answered 404: the console's files never take the API down.
 */
export const consoleFileRoute: FastifyPluginAsync<{ files: ConsoleFiles }> = async (app, { files }) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    config: { consoleFiles: true },
    handler: async (request, reply) => {
      const answer = await files(request).catch((error: unknown) => {
        request.log.error({ err: error }, `control: the console's file for ${request.method} ${pathOnly(request.raw.url)} failed`);
        return undefined;
      });
      if (!answer) return reply.code(404).headers(PLAIN_HEADERS).send('Not found\n');
      return sendAnswer(reply, { ...answer, headers: { ...COMMON_HEADERS, ...answer.headers } });
    },
  });
};
