import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** How a path is answered instead of from the folder. */
export type Override = { body: string | Buffer; status?: number } | 'hang' | ((req: IncomingMessage, res: ServerResponse) => void);

export interface DistServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Paths asked for, in order. */
  requests: string[];
  /** The `Origin` header of each request, in the same order (`undefined` where none was sent). */
  origins: (string | undefined)[];
  overrides: Map<string, Override>;
  /**
   * The headers a file (or a `{ body }` override) is answered with, by its
   * path: `hostHeaders` unless a test replaces it, as a host that sends
   * other headers would.
   */
  headersOf: (pathname: string) => Record<string, string>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * What a correctly set up static host sends with a remote's file
 * (docs/deploy.md, "What the static host must send"): its type, and CORS
 * for a page on any origin.
 */
export function hostHeaders(pathname: string): Record<string, string> {
  const type = TYPES[path.extname(pathname)];
  return { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff', ...(type ? { 'Content-Type': type } : {}) };
}

/**
 * A loopback static server for a remote's dist/, as a CDN would serve it,
 * where a test can replace what one path answers (tampered bytes, a server
 * that never answers) or the headers every file is sent with.
 */
export async function serveDist(dir: string): Promise<DistServer> {
  const requests: string[] = [];
  const origins: (string | undefined)[] = [];
  const overrides = new Map<string, Override>();
  const served: DistServer = {
    origin: '',
    requests,
    origins,
    overrides,
    headersOf: hostHeaders,
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(pathname);
    origins.push(req.headers.origin);
    const override = overrides.get(pathname);
    if (override === 'hang') return;
    if (typeof override === 'function') return override(req, res);
    if (override) return void res.writeHead(override.status ?? 200, served.headersOf(pathname)).end(override.body);
    const file = path.join(dir, path.normalize(pathname));
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end('not found');
    res.writeHead(200, { ...served.headersOf(pathname), 'Content-Length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return served;
}
