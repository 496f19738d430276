import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { SectionId } from '@portico/contract/sections';
import {
  answerClientError,
  answerRequestIds,
  BODY_TIME_MS,
  closeNow,
  HttpRefusal,
  httpRoot,
  type HttpRootOptions,
  type RouteBody,
  PLAIN_HEADERS,
  listenOn,
  requestIdOptions,
  scopeRequests,
  urlOf,
  zodSchemaController,
  type HostRule,
} from '@portico/platform/http';
import { silentLogger } from '@portico/platform/logging';
import type { HealthSeriesSource, HealthSource, PublishChecks } from '../release';
import { ReleaseError } from '../store/release-error';
import { CONTROL_API, CONTROL_BODY_LIMIT, CSRF_HEADER, type ApiRoute } from '@portico/control-contract';
import { ControlContext, sendControl, type ControlContextOptions } from './control-context';
import { clearedSessionCookie, foreignOrigin, isSignIn, reachedOverHttps, sessionCookieOf, sessionRequest } from '../console/console-session-auth';
import { checkControlHost, checkNoNul, controlHostRules, refuseNulText } from './control-request-guard';
import type { FailedAuthLimit } from './failed-auth-limit';
import { auditLogRoutes } from './routes/audit';
import { canaryRoutes } from './routes/canaries';
import { configReportRoutes, type ConfigReportSource } from './routes/config';
import { messageRoutes } from './routes/messages';
import { metricsRoutes, type MetricsSource } from './routes/metrics';
import { releaseRoutes } from './routes/releases';
import { sectionRoutes } from './routes/sections';
import { consolePlugin } from '../console/console-plugin';
import type { ConsoleFiles } from '../console/console-files';
import type { AlertSender } from '../jobs/alert-sender';
import { tokenRoutes } from './routes/tokens';

export { CONTROL_BODY_LIMIT, DEFAULT_HEALTH_WINDOW_HOURS } from '@portico/control-contract';
export { METRICS_PATH, type MetricsSource } from './routes/metrics';

export interface ControlApiOptions extends ControlContextOptions {
  /** 0 for any free port (tests). */
  port: number;
  /** Loopback unless PORTICO_CONTROL_HOST names another address. */
  host?: string;
  /** The names answered besides loopback's and `host`'s (PORTICO_CONTROL_HOSTS); any other Host gets 400. */
  hostnames?: readonly HostRule[];
  publishChecks: PublishChecks;
  /** The page's public address, which preview links open (PORTICO_PUBLIC_URL or http://localhost:<port>). */
  publicUrl: string;
  /** Each section's URL in the operator's config.json, shown where a section has no active release. */
  configuredRemotes?: () => Promise<Partial<Record<SectionId, string>>>;
  /** Each release's health from the visit reports (HealthStore.health); without it every section's `health` is `{}`. */
  health?: HealthSource;
  /** The same hour by hour (HealthStore.series), for a section's charts; without it every series is empty. */
  healthSeries?: HealthSeriesSource;
  /** The operator console's files at `/` (every path outside /api/, consolePlugin's route); without them the control port answers 404 there. */
  console?: ConsoleFiles;
  /** What the config.json being served gets wrong and lacks (`GET /api/config`); without it that route answers 503. */
  configReport?: ConfigReportSource;
  /** This server's alert sender: what it can send, and a test alert sent now; without it `POST /api/alerts/test` sends nothing. */
  alerts?: Pick<AlertSender, 'canSend' | 'sendTest'>;
  /** How often an event stream asks again whether its token or session holds (EVENTS_RECHECK_MS by default; tests). */
  eventsRecheckMs?: number;
  /** The server's metrics at `GET /metrics` (a `metrics` token's); without it that path is the console's (404). */
  metrics?: MetricsSource;
}

export interface ControlApi {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The control API's areas, each a Fastify plugin of ./routes registering its
 * routes from the contract (control-contract.ts), given the shared context
 * and what that area alone needs of the options. A new area (the console's
 * sessions, its live updates) is one more plugin here.
 */
async function registerAreas(app: FastifyInstance, context: ControlContext, options: ControlApiOptions): Promise<void> {
  const answers = { store: options.store, health: options.health, configuredRemotes: options.configuredRemotes, log: context.log };
  await app.register(releaseRoutes, { context, publishChecks: options.publishChecks, publicUrl: options.publicUrl });
  await app.register(sectionRoutes, { context, answers });
  await app.register(canaryRoutes, { context, answers });
  await app.register(auditLogRoutes, { context });
  await app.register(tokenRoutes, { context });
  await app.register(configReportRoutes, { context, configReport: options.configReport });
  await app.register(messageRoutes, { context });
  await app.register(consolePlugin, {
    context,
    healthSeries: options.healthSeries,
    alerts: options.alerts,
    withMessages: options.messages !== undefined,
    eventsRecheckMs: options.eventsRecheckMs,
    files: options.console,
  });
  if (options.metrics) await app.register(metricsRoutes, { context, metrics: options.metrics });
}

const STATUS_OF: Record<ReleaseError['kind'], number> = { 'not-found': 404, conflict: 409, invalid: 400 };

/**
 * A browser is answered only as the operator console (its session, on its
 * own origin: authenticateConsole); any other is refused before a token is
 * checked, which keeps a web page the operator visits from spending the
 * failed-authentication allowance of the operator's own address. Browsers send Sec-Fetch-Site with every request
 * and Origin with most; Node's fetch and curl send neither (Node does send
 * Sec-Fetch-Mode, so that one says nothing).
 */
function fromBrowser(req: IncomingMessage): boolean {
  return req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined;
}

/** The API's paths; every other path of the control port is the console's files. */
const isApiPath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

/** No route of the API takes the request: the router found none, or only the console's files route (any GET or HEAD). */
const noApiRoute = (request: FastifyRequest) => request.is404 || request.routeOptions.config.consoleFiles === true;

/**
 * The path without its query, as the refusals name it. A target is never
 * read as an authority (`//evil.example/api/…` is a path), and one no URL
 * parser takes (`*`, an absolute form gone wrong) is its own path.
 */
function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  return URL.parse(target.startsWith('/') ? `http://control.invalid${target}` : target)?.pathname ?? target.split('?')[0]!;
}

/** Each path of the contract as a pattern, with the methods it answers in the order `Allow` names them. */
function pathMethods(routes: readonly ApiRoute[]): { pattern: RegExp; methods: string[] }[] {
  const byPath = new Map<string, string[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  return [...byPath].map(([path, methods]) => ({ pattern: new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`), methods }));
}
const PATHS = pathMethods(Object.values(CONTROL_API).flatMap((area) => Object.values(area)));

/** Every route's body, the root plugin's parser reading it: JSON (nothing: `{}`, no NUL), within the body time and CONTROL_BODY_LIMIT. */
const CONTROL_BODY: RouteBody = { as: 'json', limits: { limit: CONTROL_BODY_LIMIT, timeMs: BODY_TIME_MS }, empty: {}, reviver: refuseNulText };

/**
 * Who is asking: no browser (403), a bearer token (401 without one, not
 * counted), a known and unrevoked one (401, counted per address; past the
 * limit 429). A valid token is always let in: the limit slows guessing, and
 * must not let anyone who shares the owner's address (any local process,
 * every runner behind a CI proxy) lock the owner out. Then a path no route
 * takes: 405 with `Allow` when another method has it, else 404, its body
 * never read.
 */
function authenticate(context: ControlContext, limit: FailedAuthLimit) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const req = request.raw;
    // The console's own files (their route's): a page and its scripts, nothing of the API; any other method there is no route.
    if (noApiRoute(request) && !isApiPath(pathOf(req))) return request.is404 ? refuseUnknownPath(request) : undefined;
    if (fromBrowser(req) || sessionCookieOf(req) !== undefined || isSignIn(req, pathOf(req))) {
      await authenticateConsole(context, request);
      return refuseUnknownPath(request);
    }
    const address = req.socket.remoteAddress ?? 'unknown';
    const bearer = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) throw new HttpRefusal(401, 'a token is needed: Authorization: Bearer <token>', {}, { 'WWW-Authenticate': 'Bearer' });
    const actor = await context.store.tokens.authenticate(bearer);
    if (!actor) {
      const wait = limit.retryAfter(address);
      if (wait !== undefined)
        throw new HttpRefusal(429, `too many failed authentications from ${address}; try again in ${wait} s`, {}, { 'Retry-After': String(wait) });
      limit.fail(address);
      // The address, an operator's, against token guessing (docs/privacy.md); never the token.
      request.log.warn({ address, method: req.method, path: pathOf(req) }, 'control: a request with an unknown or revoked token');
      throw new HttpRefusal(401, 'the token is unknown or revoked', {}, { 'WWW-Authenticate': 'Bearer' });
    }
    context.authenticated(request, actor);
    void reply;
    refuseUnknownPath(request);
  };
}

/**
 * A browser: only the console, on its own origin (else 403, whatever it
 * carries, before anything is read), with its session cookie (401: sign
 * in) and that session's anti-forgery header (403) with every request, "who
 * am I" included. The sign-in itself is its route's to check.
 */
async function authenticateConsole(context: ControlContext, request: FastifyRequest): Promise<void> {
  const req = request.raw;
  const foreign = foreignOrigin(req);
  if (foreign) throw new HttpRefusal(403, `the control API answers no browsers but the console's own page (this request came with ${foreign})`);
  const asked = sessionRequest(req, pathOf(req));
  if (asked.signIn) return;
  // The session the header names, among the cookies sent: one planted beside it (another path) is passed over.
  let forged = false;
  for (const cookie of asked.cookies) {
    const session = await context.store.sessions.touch(cookie, asked.csrf);
    if (session === 'forged') forged = true;
    else if (session) return context.authenticatedSession(request, cookie, session);
  }
  if (forged) throw new HttpRefusal(403, `the ${CSRF_HEADER} header is not this session's`);
  throw new HttpRefusal(401, 'the console session has ended: sign in again', {}, { 'Set-Cookie': clearedSessionCookie(reachedOverHttps(req)) });
}

/** A path no route takes: 405 with `Allow` when another method has it, else 404, its body never read. */
function refuseUnknownPath(request: FastifyRequest): void {
  if (!noApiRoute(request)) return;
  const pathname = pathOf(request.raw);
  // Outside /api/ too (no token asked there): answered before a body is read, which only a route reads.
  if (!isApiPath(pathname)) throw new HttpRefusal(404, `no such endpoint: ${pathname}`);
  const known = PATHS.find(({ pattern }) => pattern.test(pathname));
  if (!known) throw new HttpRefusal(404, `no such endpoint: ${pathname}`);
  throw new HttpRefusal(405, `${request.raw.method} is not answered here`, {}, { Allow: known.methods.join(', ') });
}

/**
 * The root plugin's words for what a route throws: the store's refusals by
 * kind; anything else is the database (or a check run) failing under us,
 * logged by the root plugin on the request's logger and answered 503:
 * nothing changed, so try again later.
 */
const CONTROL_ROOT: Omit<HttpRootOptions, 'trustProxy'> = {
  refusalOf: (error) =>
    error instanceof ReleaseError ? new HttpRefusal(STATUS_OF[error.kind], error.message, error.field ? { field: error.field } : {}) : undefined,
  clientFaults: 'json',
  failure: (_error, _request, reply) =>
    sendControl(reply, 503, { error: 'the release database is unavailable; nothing was changed, try again' }, { 'Retry-After': '5' }),
};

/** A query's parameters as the routes read them: the first of each name, as URLSearchParams.get. */
function firstOfEach(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) if (!(name in query)) query[name] = value;
  return query;
}

/**
 * The control API: releases, sections, canaries, the audit log, tokens,
 * the config.json report and the contact messages, each request with a
 * bearer token, answered as the product brief's "Releases" table says. JSON
 * in and out, never cached. A Fastify app whose routes are the contract's
 * (control-contract.ts), an area per plugin.
 */
export async function startControlApi(options: ControlApiOptions): Promise<ControlApi> {
  const context = new ControlContext(options);
  const host = options.host ?? '127.0.0.1';
  const hostRules = controlHostRules(host, options.hostnames);
  const app = Fastify({
    // A request without Host reaches the Host check (400 with this API's headers) instead of Node's bare 400.
    http: { requireHostHeader: false },
    clientErrorHandler: answerClientError,
    exposeHeadRoutes: false,
    routerOptions: {
      // A release id is at most 100 characters, a token's name 64: a longer one is no such thing (404), not a router's refusal.
      maxParamLength: 4096,
      querystringParser: firstOfEach,
    },
    requestTimeout: 30_000 + BODY_TIME_MS,
    return503OnClosing: false,
    frameworkErrors: (_error, _request, reply) => void sendControl(reply, 400, { error: 'the path is not valid percent-encoding' }),
    // The control port is reached directly (no proxy of ours in front): an id a client sends is never taken.
    ...requestIdOptions(false),
    // Each part of a request validated by its zod schema (zodValidatorCompiler), and Fastify's JSON-schema compilers never loaded.
    schemaController: zodSchemaController,
    loggerInstance: options.log ?? silentLogger,
  });
  // Before every other hook: each answer says its request's id, and what a request records (an audit entry) carries it.
  answerRequestIds(app);
  scopeRequests(app);
  app.server.headersTimeout = 10_000;
  // Node answers an Expect it does not know with a bare 417; this one carries every answer's headers.
  app.server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(417, { ...PLAIN_HEADERS, Connection: 'close' }).end('Expectation failed\n');
  });
  // Node hands CONNECT to this event, and without a listener drops the connection unanswered.
  app.server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const body = 'CONNECT is not answered here\n';
    const headers = Object.entries({
      ...PLAIN_HEADERS,
      Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'Content-Length': String(body.length),
      Connection: 'close',
    });
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });
  // The control port is reached directly (no proxy of ours in front): the visitor is the socket's.
  await app.register(httpRoot, { trustProxy: false, ...CONTROL_ROOT });
  // Every route takes a JSON body, as every route always has; one that needs none reads none.
  app.addHook('onRoute', (route) => {
    route.config = { body: CONTROL_BODY, ...route.config };
  });
  // The API's only: the console's files are a route of their own (consolePlugin's).
  app.setNotFoundHandler(async (request, reply) => sendControl(reply, 404, { error: `no such endpoint: ${pathOf(request.raw)}` }));
  // Before anything reads the request: a name this port does not answer for (DNS rebinding), a NUL the database cannot hold.
  app.addHook('onRequest', async (request) => {
    checkControlHost(hostRules, request.raw);
    checkNoNul(request.raw);
  });
  app.addHook('onRequest', authenticate(context, context.failedAuth));
  await registerAreas(app, context, options);
  await app.ready();

  const address = await listenOn(app.server, {
    port: options.port,
    host,
    taken: (port) => `the control API's port ${port} on ${host} is taken (PORT=N moves it to N+4)`,
    failed: (port, error) => `the control API cannot listen on ${host}:${port}: ${error.message}`,
  });
  return {
    port: address.port,
    url: urlOf(address),
    async close() {
      await closeNow(app.server);
      await app.close();
      await context.publishes.close();
    },
  };
}
