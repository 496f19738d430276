import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  answerClientError,
  hostAllowed,
  hostFieldCount,
  httpRoot,
  requestIdOptions,
  sendPlain,
  stampAnswer,
  visitorOf,
  zodSchemaController,
  type HostRule,
} from '@portico/platform/http';
import type { Logger } from '@portico/platform/logging';
import { applyTimeouts, TIMEOUT_CHECK_MS, type ConnectionCap, type ClientLimits } from '../client-limits';
import type { RequestBounds } from '../request-bounds';
import { requestTarget } from '../static-files';

export interface AppServerOptions {
  hosts: readonly HostRule[];
  trustProxy: boolean;
  limits: ClientLimits;
  /** The connection caps over the four ports: per client (none behind a trusted proxy) and over all. */
  cap?: ConnectionCap;
  /** Requests in flight per connection and per client over the four ports: one past them waits, unread. */
  bounds?: RequestBounds;
  /** The port's logger (a child of main.ts's): Fastify's, so each request's lines carry its reqId. */
  log: Logger;
  /** While true, each answer closes its connection once it is out: a draining server keeps none open. */
  draining?: () => boolean;
  /** Told of each answer once it is out (the metrics): its route pattern (none matched: undefined), status and time taken. */
  onAnswered?: (route: string | undefined, status: number, seconds: number) => void;
}

export interface AppServer {
  app: FastifyInstance;
  /** Its own http.Server (Fastify's serverFactory): the timeouts, the connection cap and the listen are the server's. */
  server: Server;
}

/**
 * One port of the page server: a Fastify app on an http.Server of its own,
 * with the defences every port has before any route runs. Node's timeouts
 * and the per-client cap hold slow and many clients; what Node's parser
 * refuses is answered with our headers; a malformed target (`//`, `//a:x`,
 * broken percent-encoding) or a Host this server is not answers 400. The
 * root plugin (@portico/platform/http's httpRoot) gives every request its
 * visitor, every route its body parser, every answer its security headers
 * and every failure its answer. The app's routes are added by its plugins
 * (./plugins).
 */
export function appServer(options: AppServerOptions): AppServer {
  const { hosts, trustProxy, bounds, draining } = options;
  let server: Server | undefined;
  const app = Fastify({
    serverFactory: (handler) =>
      (server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS }, (req, res) => {
        closeIfBodyUnread(req, res);
        if (draining?.()) res.shouldKeepAlive = false;
        if (bounds) bounds.admit(req, res, () => handler(req, res));
        else handler(req, res);
      })),
    clientErrorHandler: answerClientError,
    // The router's own refusal of a target it cannot decode: sent before any hook runs, so the headers are set here.
    frameworkErrors: (_error, request, reply) => {
      stampAnswer(request, reply.raw, visitorOf(request.raw, { trustProxy }));
      void sendPlain(reply, 400, 'Bad request: malformed URL');
    },
    // Stopping closes every connection at once (startPortico's close), as before any route existed.
    return503OnClosing: false,
    rewriteUrl: (req) => literalPath(req.url ?? '/'),
    // Each request's id: nginx's behind the one proxy trusted (PORTICO_TRUST_PROXY), else our own.
    ...requestIdOptions(trustProxy),
    // Schemas are zod's: Fastify's JSON-schema compilers are never loaded.
    schemaController: zodSchemaController,
    loggerInstance: options.log,
  });
  // First: every answer, a refusal below included, gets the security headers and says its request's id.
  void app.register(httpRoot, { trustProxy });
  applyTimeouts(server!, options.limits);
  options.cap?.watch(server!);
  const { onAnswered } = options;
  // Fastify runs onResponse for a hijacked reply too (the files, the page): every answer, once, after its last byte.
  if (onAnswered) {
    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern, never the URL: no query string, no id, a bounded set.
      onAnswered(request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }

  // What a client can get wrong about the request itself is answered before any route: every app, every path, every method.
  app.addHook('onRequest', (request, reply, done) => {
    const req = request.raw;
    // Routed by its literal spelling (literalPath); the routes read it as the client sent it.
    req.url = request.originalUrl;
    if (requestTarget(req.url) === undefined) return void sendPlain(reply, 400, 'Bad request: malformed URL');
    if (hostFieldCount(req) > 1) return void sendPlain(reply, 400, 'Bad request: more than one Host header');
    if (!hostAllowed(hosts, request.visitor, { localPort: req.socket.localPort, trustProxy })) return void sendPlain(reply, 400, 'Bad request: unknown host');
    done();
  });
  return { app, server: server! };
}

/**
 * The router decodes a path before it matches it (`/config%2Ejson` is
 * `/config.json` to it, and `#` ends a path); a route answers only the
 * spelling it names, as every file is found only under the exact name it was
 * built with. So a path holding `%` or `#` reaches the router with those
 * escaped, which it matches as written: never a named route, only a
 * wildcard one (the files, `/api/`). A malformed target is left as it is,
 * for the 400. The route reads the URL as the client sent it (the app's
 * first hook puts it back).
 */
function literalPath(url: string): string {
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  if (!/[%#]/.test(pathname) || requestTarget(url) === undefined) return url;
  return pathname.replace(/%/g, '%25').replace(/#/g, '%23') + (query === -1 ? '' : url.slice(query));
}

/**
 * An answer sent while its request's body is still coming (a refusal: 405,
 * 415, 403, 404, or any answer that did not need the body) closes the
 * connection once it is out. Node would otherwise read the rest of the body
 * to reuse the connection, for as long as the client sends it up to the
 * request time (20 s): 64 MB in half a second on loopback, per connection.
 * A body read whole, or a request without one, keeps its connection.
 */
function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (!hasBody) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    // Read when the answer's head goes out: a body read by then (a form taken whole) changes nothing.
    if (!req.complete) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}
