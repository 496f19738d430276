import { existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { APP_DIRS, APP_NAMES, type AppName } from './apps';
import { answerConfig } from './config-endpoint';
import { staticFiles, type Handler } from './static-files';

export interface PorticoServerOptions {
  /** The repository root, holding each app's folder and its dist/. */
  rootDir: string;
  basePort: number;
  /** Interface to listen on; by default every IPv4 and IPv6 interface. */
  host?: string;
  /** An operator's config.json (PORTICO_CONFIG), read afresh per request. */
  configPath?: string;
  log?: (line: string) => void;
}

export interface RunningPortico {
  url: string;
  close(): Promise<void>;
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>Nothing here. <a href="/">Go to the home page</a>.</p></html>';

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(NOT_FOUND_PAGE);
}

export class StartError extends Error {}

function distOf(rootDir: string, app: AppName): string {
  return path.join(rootDir, APP_DIRS[app], 'dist');
}

function handlerFor(app: AppName, options: PorticoServerOptions): Handler {
  const files = staticFiles(distOf(options.rootDir, app), { crossOrigin: app !== 'host' });
  if (app !== 'host') return files;
  return (req, res, next) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/config.json') return files(req, res, next);
    void answerConfig({ configPath: options.configPath, hostHeader: req.headers.host, basePort: options.basePort }).then(
      (answer) => {
        if (answer.fault) options.log?.(`config.json: ${answer.fault}`);
        res.writeHead(answer.status, {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : answer.body);
      },
    );
  };
}

function listen(server: Server, port: number, host: string | undefined, app: AppName): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      // Some machines have IPv6 switched off: fall back to every IPv4 interface.
      if (host === undefined && error.code === 'EAFNOSUPPORT') {
        server.listen(port, '0.0.0.0');
        return;
      }
      server.off('listening', resolve);
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} (${app}) is already in use; stop what holds it or set PORT to move all four apps`
          : `cannot listen on port ${port} (${app}): ${error.message}`;
      reject(new StartError(reason));
    };
    server.on('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve();
    });
    server.listen({ port, host: host ?? '::', ipv6Only: false });
  });
}

/** Serves the host and the three remotes, each from its own dist/ and port. */
export async function startPortico(options: PorticoServerOptions): Promise<RunningPortico> {
  // The host's build is its page; a remote's is the manifest the host loads.
  const missing = APP_NAMES.map((app) => path.join(distOf(options.rootDir, app), app === 'host' ? 'index.html' : 'mf-manifest.json')).filter(
    (file) => !existsSync(file),
  ).map(path.dirname);
  if (missing.length > 0) {
    throw new StartError(`no build to serve in ${missing.join(', ')}: run \`npm run build\` first`);
  }

  const servers: Server[] = [];
  const close = () =>
    Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    ).then(() => undefined);

  try {
    for (const [index, app] of APP_NAMES.entries()) {
      const handle = handlerFor(app, options);
      const server = createServer((req, res) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('Method not allowed\n');
          return;
        }
        handle(req, res, () => notFound(res));
      });
      servers.push(server);
      await listen(server, options.basePort + index, options.host, app);
    }
  } catch (error) {
    await close();
    throw error;
  }

  const hostPort = (servers[0]!.address() as AddressInfo).port;
  return { url: `http://localhost:${hostPort}`, close };
}
