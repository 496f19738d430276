import type { IncomingMessage, ServerResponse } from 'node:http';
import sirv from 'sirv';

/** Names webpack gives content-hashed files: `main.0123456789.js`. */
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/** Paths a static folder never answers: traversal, hidden files, odd bytes. */
const UNSAFE = /(^|[/\\])\.|\\|\0/;

export type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Serves one dist/ folder. sirv runs in its "dev" mode only so that it looks
 * each file up per request: a redeploy into dist/ is served at once, without a
 * restart. The cache rules are ours: hashed files are immutable for a year,
 * everything else (index.html, remoteEntry.js, mf-manifest.json) is
 * revalidated against its ETag on every use.
 */
export function staticFiles(dir: string, options: { crossOrigin: boolean }): Handler {
  const serve = sirv(dir, {
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    extensions: [],
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (options.crossOrigin) res.setHeader('Access-Control-Allow-Origin', '*');
    },
  });
  return (req, res, next) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return next();
    }
    if (UNSAFE.test(pathname) || pathname.split('/').includes('..')) return next();
    if (pathname === '/') req.url = '/index.html';
    serve(req, res, next);
  };
}
