import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { APP_DIRS, APP_NAMES, type AppName } from './apps';
import { answerConfig } from './config-endpoint';
import { COMMON_HEADERS, dataHeaders, hostPageHeaders, pageHeaders } from './security-headers';
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
  /** Answers every request under `/api/` on the host's port (the contact endpoint). */
  api?: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Paths the `api` handler answers, on the host's port only. */
export const API_PREFIX = '/api/';

export interface RunningPortico {
  url: string;
  close(): Promise<void>;
}

/** The small page of every 404, on every app. */
export const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>Nothing here. <a href="/">Go to the home page</a>.</p></html>';

export class StartError extends Error {}

function distOf(rootDir: string, app: AppName): string {
  return path.join(rootDir, APP_DIRS[app], 'dist');
}

/** What each server needs to know about the app it serves. */
interface AppServing {
  handle: Handler;
  /** Headers of the app's HTML (index.html, the 404 page), per request. */
  pageHeaders: (req: IncomingMessage, search: string) => Promise<Record<string, string>>;
}

function appServing(app: AppName, options: PorticoServerOptions): AppServing {
  const configFor = (req: IncomingMessage) =>
    answerConfig({ configPath: options.configPath, hostHeader: req.headers.host, basePort: options.basePort });

  // The host page's policy names the remotes of the very config.json it will
  // be given; a remote's own page (its team's standalone preview) loads
  // nothing from elsewhere.
  const pageHeadersFor =
    app === 'host'
      ? async (req: IncomingMessage, search: string) => {
          const answer = await configFor(req);
          return answer.status === 200 ? hostPageHeaders(JSON.parse(answer.body), search) : pageHeaders([]);
        }
      : () => Promise.resolve(pageHeaders([]));

  const files = staticFiles(distOf(options.rootDir, app), { crossOrigin: app !== 'host', pageHeaders: pageHeadersFor });
  if (app !== 'host') return { handle: files, pageHeaders: pageHeadersFor };

  const handle: Handler = (req, res, next) => {
    if ((req.url ?? '/').split('?')[0] !== '/config.json') return files(req, res, next);
    void configFor(req).then((answer) => {
      if (answer.fault) options.log?.(`config.json: ${answer.fault}`);
      res.writeHead(answer.status, {
        ...dataHeaders(),
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    });
  };
  return { handle, pageHeaders: pageHeadersFor };
}

function notFound(req: IncomingMessage, res: ServerResponse, serving: AppServing): void {
  void serving.pageHeaders(req, '').then((headers) => {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : NOT_FOUND_PAGE);
  });
}

function notAllowed(res: ServerResponse): void {
  res.writeHead(405, { ...COMMON_HEADERS, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Method not allowed\n');
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
      const serving = appServing(app, options);
      const api = app === 'host' ? options.api : undefined;
      const server = createServer((req, res) => {
        if (api && (req.url ?? '').startsWith(API_PREFIX)) return api(req, res);
        if (req.method !== 'GET' && req.method !== 'HEAD') return notAllowed(res);
        serving.handle(req, res, () => notFound(req, res, serving));
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
