import type { IncomingMessage, ServerResponse } from 'node:http';
import sirv from 'sirv';
import { COMMON_HEADERS, CROSS_ORIGIN_HEADERS } from './security-headers';

/** Names webpack gives content-hashed files: `main.0123456789.js`. */
export const HASHED_FILE = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/** A hashed file never changes: a new build gives it a new name. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, remoteEntry.js, mf-manifest.json...: kept, but checked against the ETag on every use. */
export const CACHE_REVALIDATE = 'no-cache';

export function cacheControlFor(pathname: string): string {
  return HASHED_FILE.test(pathname) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

/** Hidden files and folders, backslashes, NUL bytes. */
const UNSAFE = /(^|[/\\])\.|\\|\0/;

/**
 * The decoded path a request names, or undefined when it must not be looked
 * up at all: a `.` or `..` segment (raw or percent-encoded), an encoded
 * slash that would make one, a backslash, a NUL byte, a hidden file, or
 * malformed percent-encoding. What is left can only name a file inside the
 * folder.
 */
export function safePath(url: string | undefined): string | undefined {
  const raw = (url ?? '/').split(/[?#]/)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith('/') || UNSAFE.test(decoded) || decoded.split('/').some((part) => part === '..' || part === '.')) {
    return undefined;
  }
  return decoded;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface StaticFilesOptions {
  /** A remote's files are loaded by the host's page, from another origin. */
  crossOrigin: boolean;
  /**
   * Headers for index.html (its Content-Security-Policy), worked out per
   * request; `search` is the query of the address the page was asked for.
   */
  pageHeaders: (req: IncomingMessage, search: string) => Promise<Record<string, string>>;
}

function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/**
 * Serves one dist/ folder. sirv runs in its "dev" mode only so that it looks
 * each file up per request: a redeploy into dist/ is served at once, without a
 * restart. It serves the `.br` or `.gz` the build made beside a file when the
 * browser accepts it. The headers are ours and set before sirv runs, so a 304
 * carries them too: hashed files are immutable for a year, everything else is
 * revalidated against its ETag on every use.
 */
export function staticFiles(dir: string, options: StaticFilesOptions): Handler {
  const serve = sirv(dir, { dev: true, etag: true, brotli: true, gzip: true, extensions: [] });
  return (req, res, next) => {
    const pathname = safePath(req.url);
    if (pathname === undefined) return next();
    const file = pathname === '/' ? '/index.html' : pathname;
    const { search } = new URL(req.url ?? '/', 'http://x');
    // sirv decodes the URL again; hand it the checked path, encoded once.
    req.url = encodeURI(file);
    setHeaders(res, COMMON_HEADERS);
    if (options.crossOrigin) setHeaders(res, CROSS_ORIGIN_HEADERS);
    res.setHeader('Cache-Control', cacheControlFor(file));
    if (file !== '/index.html') return serve(req, res, next);
    void options.pageHeaders(req, search).then((headers) => {
      setHeaders(res, headers);
      serve(req, res, next);
    });
  };
}
