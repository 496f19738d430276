import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { answerConfig } from '@portico/config-server/config-answer';
import { APP_DIRS, APP_NAMES, type AppName, type SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import { previewTokenIn } from '@portico/contract/preview';
import { BEACON_PATH, VISIT_PATH, type HealthNote } from '@portico/contract/beacon';
import { CONTACT_PATH } from '@portico/contract/contact-wire';
import type { ActiveReleases, ServedState } from '@portico/releases';
import { applyTimeouts, ConnectionCap, DEFAULT_CLIENT_LIMITS, TIMEOUT_CHECK_MS, type ClientLimits } from './client-limits';
import { answerCrawlerFile, isCrawlerPath } from './crawler-files';
import { answerClientError, guardRequests } from './guard';
import { answerPlain, clearFileHeaders } from './plain-answer';
import { allowedHosts, hostAllowed, parseHostRule, visitorOf, type HostRule } from './request-origin';
import { dataHeaders, hostPageHeaders, pageHeaders, STRICT_TRANSPORT_SECURITY } from './security-headers';
import { randomInt } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import {
  COHORT_COOKIE,
  COHORT_DAYS,
  cohortVariants,
  releaseIds,
  releasesFor,
  ServedReleases,
  withReleases,
  type PreviewVisit,
  type ReleaseFeed,
} from './served-releases';
import { configLogger } from './config-log';
import { oncePerRequest, siteContext, type SiteContext } from './site-context';
import { serverRendering, type RenderWorkerState, type ServerRendering, type ServerRenderingOptions } from './ssr/server-rendering';
import { requestTarget, staticFiles, type Handler } from './static-files';
import { answerThemeStylesheet, isThemeStylesheetPath } from './theme-stylesheet';

export interface PorticoServerOptions {
  /** The repository root, holding each app's folder and its dist/. */
  rootDir: string;
  /** The host's port; the remotes take the next three. 0: each app on an ephemeral port of its own (tests). */
  basePort: number;
  /** Interface to listen on; by default every IPv4 and IPv6 interface. */
  host?: string;
  /** An operator's config.json (PORTICO_CONFIG), read afresh per request. */
  configPath?: string;
  /**
   * Hosts answered (PORTICO_HOSTS: `name` or `name:port`, see hostAllowed);
   * any other Host gets 400. By default `localhost`, the loopback addresses
   * and this machine's own addresses, on the port each request came in on.
   */
  hostnames?: Iterable<string | HostRule>;
  /** A proxy in front sets X-Forwarded-Host, -Proto and -For (PORTICO_TRUST_PROXY=1). */
  trustProxy?: boolean;
  /** Where faults are reported (a config.json that cannot be served, a request that failed); stderr by default. */
  log?: (line: string) => void;
  /** Answers every request under `/api/` on the host's port (the contact endpoint), but the beacon's. */
  api?: ApiHandler;
  /**
   * Answers `/api/beacon` and `/api/visit` on the host's port
   * (server/src/beacon/beacon-endpoint.ts): the page's visit reports and
   * its visit ids; told of every page served, for which ids may be issued.
   */
  beacon?: {
    handle: (req: IncomingMessage, res: ServerResponse, served: ServedState) => void | Promise<void>;
    handleVisit: (req: IncomingMessage, res: ServerResponse, served: ServedState) => void | Promise<void>;
    pageServed: (releases: HealthNote['releases']) => void;
  };
  /**
   * The page rendered on the server by the host's shell worker and a sandboxed
   * worker per section (server/src/ssr/):
   * on by default, `false` serves the client-rendered index.html only.
   */
  ssr?: false | Pick<ServerRenderingOptions, 'budgetMs' | 'heapMb' | 'cache' | 'sandbox' | 'stages' | 'onSignal' | 'styleLimits'>;
  /**
   * The host's port opens once the first render worker is warm, or after
   * this long without one (FIRST_WORKER_WAIT_MS), serving the client-rendered
   * page until one is. The remotes' ports open first.
   */
  firstWorkerWaitMs?: number;
  /**
   * How long a client may take and how many connections it may hold
   * (DEFAULT_CLIENT_LIMITS). Behind a trusted proxy every connection is the
   * proxy's, so the per-client cap is off there.
   */
  clientLimits?: Partial<ClientLimits>;
  /**
   * Releases (PostgreSQL): each section's active release decides its remote
   * in config.json, on every server at once, and preview links show one.
   * Without it, config.json is served as written.
   */
  releases?: ReleaseFeed;
}

const NO_RELEASES: ServedState = { active: {}, canaries: {} };

/** A visitor's cohort, for one request: the bucket it is served by (none: the active releases), and the cookie to set when it was drawn now. */
interface Cohort {
  bucket: number | undefined;
  setCookie?: string;
}
const cohorts = new WeakMap<IncomingMessage, Cohort>();

/**
 * The cohort of a request while a canary runs: the visitor's cookie, or, on
 * a page answer without one, a bucket drawn now and set (30 days), so a new
 * browser can land in the candidate. Other answers without a cookie
 * (config.json, the theme) get the active releases. No canary: no cohort,
 * no cookie. A preview visit (`?preview=`, valid or not) draws none either:
 * it sets no cookie, as a preview promises, and its other sections get a
 * cohort's releases only from a cookie the browser already has.
 */
function cohortOf(req: IncomingMessage, state: ServedState, secure: boolean): Cohort {
  const known = cohorts.get(req);
  if (known) return known;
  let cohort: Cohort = { bucket: undefined };
  if (Object.keys(state.canaries).length > 0) {
    const given = parseCookies(req.headers.cookie ?? '')[COHORT_COOKIE];
    const target = requestTarget(req.url);
    const pathname = target?.pathname;
    if (given !== undefined && /^\d{1,2}$/.test(given)) {
      cohort = { bucket: Number(given) };
    } else if ((pathname === '/' || pathname === '/index.html') && previewTokenIn(target?.search ?? '') === undefined) {
      const bucket = randomInt(100);
      cohort = { bucket, setCookie: serializeCookie(COHORT_COOKIE, String(bucket), { path: '/', sameSite: 'lax', httpOnly: true, secure, maxAge: COHORT_DAYS * 86_400 }) };
    }
  }
  cohorts.set(req, cohort);
  return cohort;
}

/** How long an activation waits for the render workers to be warm with it before it is served anyway. */
export const WARM_RELEASE_WITHIN_MS = 1200;

/** Paths the `api` handler answers, on the host's port only. */
export const API_PREFIX = '/api/';

export interface RunningPortico {
  url: string;
  /** The port of each app, in APP_NAMES order: host, home, about, contact. */
  ports: readonly number[];
  /** The live workers' process ids and generations, the sandbox and the caches, when pages are server-rendered. */
  renderWorker: () => RenderWorkerState | undefined;
  /** The releases and canaries served now (none without a release store). */
  releases: () => ServedState;
  /** A publish's render check, in the sandbox of the section workers (see ServerRendering.checkRender). */
  checkRender: (section: SectionId, build: NodeBuild) => Promise<string[]>;
  close(): Promise<void>;
}

/** The small page of every 404, on every app. */
export const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>Nothing here. <a href="/">Go to the home page</a>.</p></html>';

export class StartError extends Error {}

function distOf(rootDir: string, app: AppName): string {
  return path.join(rootDir, APP_DIRS[app], 'dist');
}

/** The options every request needs, with their defaults filled in. */
interface Settings {
  configPath?: string;
  basePort: number;
  /** Where each app listens, in APP_NAMES order, once it does. */
  ports: number[];
  hosts: readonly HostRule[];
  trustProxy: boolean;
  log: (line: string) => void;
  ssr: PorticoServerOptions['ssr'];
  /** The host's server rendering, once the host's server is set up. */
  rendering?: ServerRendering;
  releases?: ServedReleases;
  /** Warms the render workers for releases about to be served. */
  warmFor?: (next: ServedState) => Promise<void>;
  openPreview?: (token: string) => Promise<PreviewVisit>;
  healthToken?: ReleaseFeed['healthToken'];
  /** A page of these releases was served: the beacon may issue one more visit id for them. */
  pageServed?: (releases: HealthNote['releases']) => void;
  /** What this server saw of a release itself, for the store (ReleaseFeed.signal). */
  signal?: ReleaseFeed['signal'];
  /** The releases being warmed before they are served, while they are. */
  upcoming?: ServedState;
  /** Reads config.json as a visitor would get it (its report is logged the first time its content is seen). */
  readConfig?: () => Promise<SiteContext>;
}

/** What each server needs to know about the app it serves. */
interface AppServing {
  handle: Handler;
  /** Headers of the app's HTML (index.html, the 404 page), per request. */
  pageHeaders: (req: IncomingMessage, search: string) => Promise<Record<string, string>>;
}

/**
 * Logs each distinct line once: the page's headers are computed per request,
 * and a config.json fault would otherwise fill the log at every page load.
 */
function onceEach(log: ((line: string) => void) | undefined): (line: string) => void {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    // Bounded, for a config.json that keeps changing.
    if (seen.size >= 500) seen.clear();
    seen.add(line);
    log?.(line);
  };
}

function appServing(app: AppName, rootDir: string, settings: Settings): AppServing {
  const logHeaderNote = onceEach(settings.log);
  const logConfig = configLogger(settings.log);
  const hostOf = (req: IncomingMessage) => visitorOf(req, { trustProxy: settings.trustProxy }).host;
  // config.json, read and parsed once per request (site-context.ts), or for a host the server renders for in the background.
  const served = () => settings.releases?.current() ?? NO_RELEASES;
  const isHttps = (req: IncomingMessage) => visitorOf(req, { trustProxy: settings.trustProxy }).protocol === 'https';
  const siteWith = async (host: string | undefined, releases: ActiveReleases, previewToken?: string): Promise<SiteContext> => {
    const answer = await answerConfig({ configPath: settings.configPath, hostHeader: host, basePort: settings.basePort, ports: settings.ports });
    const preview = previewToken === undefined || !settings.openPreview ? undefined : await settings.openPreview(previewToken);
    const ids = releaseIds(releases);
    const token = Object.keys(ids).length > 0 ? settings.healthToken?.(ids) : undefined;
    const context = siteContext(withReleases(answer, releases, preview, token === undefined ? undefined : { releases: ids, token }));
    // The operator's mistakes are the operator's: in this log, never on the page.
    if (context.site) logConfig(answer.body, context.site);
    return context;
  };
  /** Every config.json a visitor to `host` may get under `state`: one per cohort's releases. */
  const variantsFor = (host: string | undefined, state: ServedState) => Promise.all(cohortVariants(state).map((releases) => siteWith(host, releases)));
  const siteForHost = (host: string | undefined) => variantsFor(host, served());
  if (app === 'host') settings.readConfig = () => siteWith(undefined, served().active);
  const siteOf = oncePerRequest((req) =>
    siteWith(hostOf(req), releasesFor(served(), cohortOf(req, served(), isHttps(req)).bucket), previewTokenIn(requestTarget(req.url)?.search ?? '')),
  );
  /** The cookie to set and the Vary to send while a canary runs: cohorts are per visitor. */
  const cohortHeaders = (req: IncomingMessage): Record<string, string> => {
    const state = served();
    if (Object.keys(state.canaries).length === 0) return {};
    const { setCookie } = cohortOf(req, state, isHttps(req));
    return setCookie ? { 'Set-Cookie': setCookie } : {};
  };
  const varyCookie = (vary: string | undefined) => (Object.keys(served().canaries).length === 0 ? vary : [vary, 'Cookie'].filter(Boolean).join(', '));
  // The default config.json names remotes on the host the visitor used, so
  // it and the host page's policy differ per Host: caches must know.
  const varyByHost: Record<string, string> = settings.configPath
    ? {}
    : { Vary: settings.trustProxy ? 'Host, X-Forwarded-Host' : 'Host' };

  // The host page's policy names the remotes of the very config.json it will
  // be given; a remote's own page (its team's standalone preview) loads
  // nothing from elsewhere.
  const pageHeadersFor =
    app === 'host'
      ? async (req: IncomingMessage, search: string) => {
          const { site } = await siteOf(req);
          const headers = site ? hostPageHeaders(site, search, logHeaderNote) : pageHeaders([]);
          const vary = varyCookie(varyByHost.Vary);
          return { ...headers, ...cohortHeaders(req), ...(vary ? { Vary: vary } : {}) };
        }
      : () => Promise.resolve(pageHeaders([]));

  const files = staticFiles(distOf(rootDir, app), { crossOrigin: app !== 'host', pageHeaders: pageHeadersFor });
  if (app !== 'host') return { handle: files, pageHeaders: pageHeadersFor };

  const rendering =
    settings.ssr === false
      ? undefined
      : serverRendering({
          rootDir,
          siteForHost,
          siteOf,
          hostOf,
          pageHeaders: pageHeadersFor,
          originOf: (req) => visitorOf(req, { trustProxy: settings.trustProxy }).origin,
          ...settings.ssr,
          onSignal: (signal) => {
            if (settings.ssr) settings.ssr.onSignal?.(signal);
            const { section, pins, kind, detail } = signal;
            // What is served, and what is being warmed to be (a canary's candidate is first rendered then).
            const states = [served(), ...(settings.upcoming ? [settings.upcoming] : [])];
            // A render failing counts only for a canary's judge; a build set aside (or running again) is also the active release's mark.
            if (!settings.signal || (kind === 'render-failed' && !states.some((state) => state.canaries[section]))) return;
            const releases = new Map(states.flatMap((state) => [state.active[section], state.canaries[section]?.release]).flatMap((release) => (release ? [[release.id, release]] : [])));
            for (const release of releases.values()) {
              if (!pins.includes(release.integrity)) continue;
              settings.signal({ section, releaseId: release.id, kind, detail }).catch((error: unknown) =>
                settings.log(`releases: what this server saw of ${release.id} (${kind}) could not be stored: ${(error as Error).message}`),
              );
            }
          },
          log: settings.log,
        });
  settings.rendering = rendering;
  settings.warmFor = (next) => rendering?.warm((host) => variantsFor(host, next), WARM_RELEASE_WITHIN_MS) ?? Promise.resolve();

  /**
   * A page answer (the server-rendered page, its 304, or the client-rendered
   * index.html) counts for the releases its visitor is served: the beacon
   * issues no more visit ids for them than pages. A preview visit reports
   * nothing, and a HEAD is no page.
   */
  const countPage = (req: IncomingMessage, search: string) => {
    if (!settings.pageServed || req.method !== 'GET' || previewTokenIn(search) !== undefined) return;
    const ids = releaseIds(releasesFor(served(), cohortOf(req, served(), isHttps(req)).bucket));
    if (Object.keys(ids).length > 0) settings.pageServed(ids);
  };

  const handle: Handler = async (req, res, next) => {
    const target = requestTarget(req.url);
    const pathname = target?.pathname;
    if (pathname === '/' || pathname === '/index.html') countPage(req, target!.search);
    if (isCrawlerPath(pathname)) {
      // respond() has checked the host, so the visitor has an origin.
      const { origin } = visitorOf(req, { trustProxy: settings.trustProxy });
      return answerCrawlerFile(req, res, pathname, { origin: origin!, vary: settings.trustProxy ? 'Host, X-Forwarded-Host, X-Forwarded-Proto' : 'Host' });
    }
    if (isThemeStylesheetPath(pathname)) {
      const { site } = await siteOf(req);
      return answerThemeStylesheet(req, res, { config: site?.config, search: target!.search, vary: varyByHost.Vary });
    }
    if (rendering && (pathname === '/' || pathname === '/index.html')) return rendering.handle(req, res, () => files(req, res, next));
    if (rendering?.sectionStyles.handles(pathname)) return rendering.sectionStyles.answer(req, res, pathname!);
    if (pathname !== '/config.json') return files(req, res, next);
    const { answer } = await siteOf(req);
    if (answer.fault) settings.log(`config.json: ${answer.fault}`);
    const vary = varyCookie(varyByHost.Vary);
    res.writeHead(answer.status, {
      ...dataHeaders(),
      ...(vary ? { Vary: vary } : {}),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(answer.body)),
      'Cache-Control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  };
  return { handle, pageHeaders: pageHeadersFor };
}

async function notFound(req: IncomingMessage, res: ServerResponse, serving: AppServing): Promise<void> {
  const headers = await serving.pageHeaders(req, '');
  clearFileHeaders(res);
  res.writeHead(404, {
    ...headers,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(NOT_FOUND_PAGE)),
    'Cache-Control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : NOT_FOUND_PAGE);
}

/**
 * One request, start to end. What a client can get wrong is answered here
 * (400 for a malformed target or a host this server is not, 405 for a
 * method); everything else is the app's.
 */
type ApiHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * A 5xx answer of /api/contact while a canary of Contact runs is a failure
 * of the release the visitor's cohort got (the cohort cookie is on the
 * POST): told to the store for the judge, who trusts what the server saw.
 */
function watchContactAnswer(req: IncomingMessage, res: ServerResponse, settings: Settings): void {
  const state = settings.releases?.current();
  if (!settings.signal || !state?.canaries.contact) return;
  const releaseId = releasesFor(state, cohortOf(req, state, false).bucket).contact?.id;
  if (releaseId === undefined) return;
  res.once('finish', () => {
    if (res.statusCode < 500) return;
    settings.signal!({ section: 'contact', releaseId, kind: 'contact-5xx', detail: `/api/contact answered ${res.statusCode}` }).catch((error: unknown) =>
      settings.log(`releases: a 5xx of /api/contact could not be counted for ${releaseId}: ${(error as Error).message}`),
    );
  });
}

async function respond(
  req: IncomingMessage,
  res: ServerResponse,
  serving: AppServing,
  settings: Settings,
  api: { api?: ApiHandler; beacon?: ApiHandler; visit?: ApiHandler },
): Promise<void> {
  const target = requestTarget(req.url);
  if (target === undefined) return answerPlain(req, res, 400, 'Bad request: malformed URL');
  const visitor = visitorOf(req, { trustProxy: settings.trustProxy });
  if (!hostAllowed(settings.hosts, visitor, { localPort: req.socket.localPort, trustProxy: settings.trustProxy })) {
    return answerPlain(req, res, 400, 'Bad request: unknown host');
  }
  if (visitor.protocol === 'https') res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  // The beacon and the contact endpoint take POST, on the host's port only; they check the method themselves.
  if (api.beacon && target.pathname === BEACON_PATH) return api.beacon(req, res);
  if (api.visit && target.pathname === VISIT_PATH) return api.visit(req, res);
  if (api.api && target.pathname.startsWith(API_PREFIX)) {
    if (target.pathname === CONTACT_PATH && req.method === 'POST') watchContactAnswer(req, res, settings);
    return api.api(req, res);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return answerPlain(req, res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
  await serving.handle(req, res, () => notFound(req, res, serving));
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

/** How long the host's port waits for the first render worker to be warm before it opens anyway. */
export const FIRST_WORKER_WAIT_MS = 30_000;

/**
 * Checks that `port` is free on `host` now (0: finds one), for the host's
 * server to listen on once the render worker is warm: a port taken stops the
 * start at once, not after the warm-up.
 */
async function freePort(port: number, host: string | undefined): Promise<number> {
  const probe = createServer();
  await listen(probe, port, host, 'host');
  const free = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

/**
 * Waits (at most `waitMs`) for the first render worker to be warm, logging
 * why the host's port is not open yet, and, if none was warm in time, that
 * it opens with the client-rendered page.
 */
async function firstWorkerWarm(rendering: ServerRendering, settings: Settings, waitMs: number): Promise<void> {
  const port = settings.ports[0]!;
  settings.log(
    `Portico: home, about and contact listen on ports ${settings.ports.slice(1).join(', ')}; the host's port ${port} opens once the first render worker is warm (at most ${waitMs / 1000} s)`,
  );
  const started = performance.now();
  // The first visitor already gets a server-rendered page.
  const warmHosts = settings.hosts
    .filter((rule) => rule.hostname === 'localhost' || rule.hostname === '127.0.0.1')
    .map((rule) => `${rule.hostname}:${rule.port ?? port}`);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([rendering.start(warmHosts), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  if (rendering.worker().generation === undefined) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    settings.log(`Portico: no render worker was warm after ${seconds} s; port ${port} opens anyway, serving the client-rendered page until one is`);
  }
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
    Promise.all([
      settings.rendering?.close(),
      settings.releases?.close(),
      ...servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    ]).then(() => undefined);

  const settings: Settings = {
    configPath: options.configPath,
    basePort: options.basePort,
    ports: [],
    hosts: [...(options.hostnames ?? allowedHosts({}))].map((entry) => (typeof entry === 'string' ? parseHostRule(entry) : entry)),
    trustProxy: options.trustProxy ?? false,
    log: options.log ?? ((line) => console.error(line)),
    ssr: options.ssr,
  };
  const feed = options.releases;
  if (feed) {
    settings.openPreview = (token) => feed.openPreview(token);
    settings.healthToken = feed.healthToken && ((releases) => feed.healthToken!(releases));
    settings.signal = feed.signal && ((signal) => feed.signal!(signal));
    settings.releases = new ServedReleases({
      feed,
      warm: async (next) => {
        settings.upcoming = next;
        try {
          await settings.warmFor?.(next);
        } finally {
          settings.upcoming = undefined;
        }
      },
      log: settings.log,
    });
  }

  const limits = { ...DEFAULT_CLIENT_LIMITS, ...options.clientLimits };
  const cap = settings.trustProxy ? undefined : new ConnectionCap(limits.connectionsPerClient, settings.log);

  const { beacon } = options;
  settings.pageServed = beacon && ((releases) => beacon.pageServed(releases));
  const servedNow = () => settings.releases?.current() ?? NO_RELEASES;
  const hostApi = {
    api: options.api,
    beacon: beacon && ((req: IncomingMessage, res: ServerResponse) => beacon.handle(req, res, servedNow())),
    visit: beacon && ((req: IncomingMessage, res: ServerResponse) => beacon.handleVisit(req, res, servedNow())),
  };

  try {
    for (const app of APP_NAMES) {
      const serving = appServing(app, options.rootDir, settings);
      const api = app === 'host' ? hostApi : {};
      const server = createServer(
        { connectionsCheckingInterval: TIMEOUT_CHECK_MS },
        guardRequests((req, res) => respond(req, res, serving, settings, api), settings.log),
      );
      applyTimeouts(server, limits);
      cap?.watch(server);
      server.on('clientError', answerClientError);
      servers.push(server);
    }
    const portFor = (index: number) => (options.basePort === 0 ? 0 : options.basePort + index);
    settings.ports[0] = await freePort(portFor(0), options.host);
    // What is active decides what the first workers warm up with.
    await settings.releases?.start();
    // config.json's report (a bad field, a market without a lender, an old shape) is in the log from the start.
    await settings.readConfig?.();
    // The remotes first: the render worker warms up on the manifests they serve.
    for (const [index, app] of APP_NAMES.entries()) {
      if (app === 'host') continue;
      await listen(servers[index]!, portFor(index), options.host, app);
      settings.ports[index] = (servers[index]!.address() as AddressInfo).port;
    }
    // The page's port opens once it serves the server-rendered page: a load
    // balancer or a monitor sends visitors as soon as the port answers.
    if (settings.rendering) await firstWorkerWarm(settings.rendering, settings, options.firstWorkerWaitMs ?? FIRST_WORKER_WAIT_MS);
    await listen(servers[0]!, settings.ports[0], options.host, 'host').catch((error: unknown) => {
      // An ephemeral port someone took in the meantime: any other will do.
      if (options.basePort !== 0) throw error;
      return listen(servers[0]!, 0, options.host, 'host');
    });
    settings.ports[0] = (servers[0]!.address() as AddressInfo).port;
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url: `http://localhost:${settings.ports[0]!}`,
    ports: [...settings.ports],
    renderWorker: () => settings.rendering?.worker(),
    releases: () => settings.releases?.current() ?? NO_RELEASES,
    checkRender: (section, build) =>
      settings.rendering ? settings.rendering.checkRender(section, build) : Promise.resolve(['not run: this server renders pages in the browser only (PORTICO_SSR=0)']),
    close,
  };
}
