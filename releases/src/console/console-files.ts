import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS, writeAnswer, type Answer } from '@portico/platform/http';

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

/**
 * The operator console's built files (console/dist), for the control port
 * only: a file the build made, or index.html for any other path without a
 * file extension (the console's own routes, e.g. /sections/contact), or
 * false when there is neither (404). The console's CSP on the page.
 */
export function consoleFiles(dist: string, folderFiles: FolderFiles): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const files = folderFiles(dist, { crossOrigin: false, pageHeaders: () => Promise.resolve({ ...CONSOLE_PAGE_HEADERS }) });
  return async (req, res) => {
    // The control API hands its bare request (it writes the console's files itself).
    const request = { raw: req };
    let served = true;
    const notFound = () => {
      served = false;
      return { status: 404, headers: {} };
    };
    const answer = await files(request, notFound);
    if (served) {
      writeAnswer(res, answer, COMMON_HEADERS);
      return true;
    }
    // The target after the origin, never read as an authority (`//a:x` is a path): one no URL parser takes is no file.
    const target = req.url ?? '/';
    const pathname = target.startsWith('/') ? URL.parse(`http://console.invalid${target}`)?.pathname : undefined;
    if (pathname === undefined) return false;
    if (/\.[A-Za-z0-9]+$/.test(pathname)) return false;
    served = true;
    const asked = req.url;
    req.url = '/index.html';
    const page = await files(request, notFound);
    req.url = asked;
    if (served) writeAnswer(res, page, COMMON_HEADERS);
    return served;
  };
}
