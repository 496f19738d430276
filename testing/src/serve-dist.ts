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
  overrides: Map<string, Override>;
  close(): Promise<void>;
}

/**
 * A loopback static server for a remote's dist/, as a CDN would serve it,
 * where a test can replace what one path answers (tampered bytes, a server
 * that never answers).
 */
export async function serveDist(dir: string): Promise<DistServer> {
  const requests: string[] = [];
  const overrides = new Map<string, Override>();
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(pathname);
    const override = overrides.get(pathname);
    if (override === 'hang') return;
    if (typeof override === 'function') return override(req, res);
    if (override) return void res.writeHead(override.status ?? 200).end(override.body);
    const file = path.join(dir, path.normalize(pathname));
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'Content-Length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    overrides,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
