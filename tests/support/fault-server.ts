import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from './paths';

/** What the server does for one path instead of serving the file. */
export type Fault =
  /** Answer this status; with `times`, only the next `times` requests, then serve normally. */
  | { status: number; times?: number }
  /** Answer 200 with this body. */
  | { body: string; contentType?: string }
  /** Answer 200 with these bodies, one per request in order; the last one again after that. */
  | { bodies: string[]; contentType?: string }
  /** Accept the request and never answer (the socket is destroyed on close). */
  | { hang: true }
  /**
   * Serve the real file, changed, as a build of the changed code would: the
   * SHA-384 the remote's other files give for it (remoteEntry.js's chunk
   * hashes, the manifest's) is changed to match, so integrity checks pass and
   * the change itself is what the host meets.
   */
  | { rewrite: (text: string) => string };

export interface RemoteManifest {
  exposes: { name: string; path: string; assets: { js: { sync: string[]; async: string[] } } }[];
  shared: { name: string; requiredVersion: string }[];
}

export interface FaultServer {
  /** `http://127.0.0.1:<port>`, as the browser reaches it. */
  origin: string;
  manifestUrl: string;
  /** The built remote's manifest, as on disk. */
  manifest: RemoteManifest;
  /** The first script of the exposed module, e.g. `/__federation_expose_section.0123456789.js`. */
  exposedChunk: string;
  /** Sets the fault for one path (`/mf-manifest.json`, `/remoteEntry.js`, …). */
  fault(pathname: string, fault: Fault): void;
  /**
   * Serves every file as built again, and drops the requests still hanging,
   * as a server restarted to fix a fault does.
   */
  clear(): void;
  /** Every path requested since the last clear(), in order. */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

/**
 * A small server on loopback that serves a real built remote's dist/ (by
 * default remote-contact's) from its own origin, with a switchable fault per
 * path. Files are never cached, so clearing a fault takes effect on the next
 * request.
 */
export async function startFaultServer(dist = path.join(REPO_ROOT, 'remote-contact/dist')): Promise<FaultServer> {
  const faults = new Map<string, Fault>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<Socket>();

  const headers = (contentType: string) => ({
    'Content-Type': contentType,
    'Cache-Control': 'no-store',
    'Access-Control-Allow-Origin': '*',
  });

  const sri = (content: Buffer | string) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

  /**
   * Every file of the remote as served now: rewritten where a fault says so,
   * then with each changed file's old hash swapped for its new one wherever
   * another file names it, until nothing changes (a chunk's hash is in
   * remoteEntry.js, whose own hash is in the manifest).
   */
  const servedFiles = async (): Promise<Map<string, Buffer>> => {
    const originals = new Map<string, Buffer>();
    for (const name of await readdir(dist, { recursive: true })) {
      const file = path.join(dist, name);
      try {
        originals.set(`/${name.split(path.sep).join('/')}`, await readFile(file));
      } catch {
        // a folder
      }
    }
    const served = new Map(originals);
    for (const [pathname, fault] of faults) {
      const original = originals.get(pathname);
      if (original && 'rewrite' in fault) served.set(pathname, Buffer.from(fault.rewrite(original.toString('utf8'))));
    }
    for (let round = 0; round < 5; round += 1) {
      const swaps = [...served]
        .filter(([pathname, content]) => !content.equals(originals.get(pathname)!))
        .map(([pathname, content]) => [sri(originals.get(pathname)!), sri(content)] as const);
      let changed = false;
      for (const [pathname, content] of served) {
        if (!/\.(js|json|css)$/.test(pathname)) continue;
        let text = content.toString('utf8');
        for (const [before, after] of swaps) text = text.split(before).join(after);
        if (text !== content.toString('utf8')) {
          served.set(pathname, Buffer.from(text));
          changed = true;
        }
      }
      if (!changed) break;
    }
    return served;
  };

  const serveFile = async (pathname: string, res: ServerResponse) => {
    const content = (await servedFiles()).get(pathname);
    if (!content) return void res.writeHead(404, headers('text/plain')).end('not found');
    const type = TYPES[path.extname(pathname)] ?? 'application/octet-stream';
    res.writeHead(200, headers(type)).end(content);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(pathname);
    const fault = faults.get(pathname);
    if (!fault) return void serveFile(pathname, res);
    if ('hang' in fault) return void hanging.add(req.socket);
    if ('rewrite' in fault) return void serveFile(pathname, res);
    if ('body' in fault) return void res.writeHead(200, headers(fault.contentType ?? 'text/plain')).end(fault.body);
    if ('bodies' in fault) {
      const body = fault.bodies.length > 1 ? fault.bodies.shift()! : fault.bodies[0];
      return void res.writeHead(200, headers(fault.contentType ?? 'text/plain')).end(body);
    }
    if (fault.times !== undefined) {
      fault.times -= 1;
      if (fault.times <= 0) faults.delete(pathname);
    }
    res.writeHead(fault.status, headers('text/plain')).end(`fault: ${fault.status}`);
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const manifest = JSON.parse(await readFile(path.join(dist, 'mf-manifest.json'), 'utf8')) as RemoteManifest;
  const firstChunk = manifest.exposes[0]?.assets.js.sync[0];
  if (!firstChunk) throw new Error(`${dist}/mf-manifest.json names no exposed module: build the remote first`);

  return {
    origin,
    manifestUrl: `${origin}/mf-manifest.json`,
    manifest,
    exposedChunk: `/${firstChunk}`,
    fault: (pathname, fault) => faults.set(pathname, fault),
    clear: () => {
      faults.clear();
      requests.length = 0;
      for (const socket of hanging) socket.destroy();
      hanging.clear();
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A hanging request would otherwise keep the server, and the run, alive.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A manifest rewritten as if the remote had been built differently. */
export function rewriteManifest(change: (manifest: RemoteManifest) => void): (text: string) => string {
  return (text) => {
    const manifest = JSON.parse(text) as RemoteManifest;
    change(manifest);
    return JSON.stringify(manifest);
  };
}

/** remoteEntry.js with the requiredVersion of one shared module changed, as a build with another range would have it. */
export function rewriteEntryRequirement(name: string, range: string): (text: string) => string {
  return (text) => {
    // The minifier writes the key bare (`react:`) or quoted (`"react-dom":`).
    const at = [`${JSON.stringify(name)}:[{version:`, `${name}:[{version:`].map((key) => text.indexOf(key)).find((i) => i >= 0) ?? -1;
    const required = text.indexOf('requiredVersion:"', at);
    if (at < 0 || required < 0) throw new Error(`remoteEntry.js does not share ${name} as expected`);
    const start = required + 'requiredVersion:"'.length;
    return text.slice(0, start) + range + text.slice(text.indexOf('"', start));
  };
}
