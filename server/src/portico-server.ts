import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { APP_DIRS, APP_NAMES, type AppName, type SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import { closeNow, ListenError, listenOn } from '@portico/platform/http';
import { silentLogger, type Logger } from '@portico/platform/logging';
import type { ServedState } from '@portico/releases';
import type { ContactEndpoint } from '@portico/messages';
import type { BeaconEndpoint } from './beacon/beacon-endpoint';
import { ConnectionCap, connectionBudget, DEFAULT_CLIENT_LIMITS, openFileLimit, type ClientLimits } from './client-limits';
import { builtPage } from './built-page';
import { appServer, type AppServer } from './http/app-server';
import { HostSite } from './http/host-site';
import { warmAnswers } from './http/warm-answers';
import { appFiles } from './http/plugins/app-files';
import { beaconRoutes } from './http/plugins/beacon';
import { configRoutes } from './http/plugins/config';
import { contactRoutes } from './http/plugins/contact';
import { contactForm } from './http/plugins/contact-form';
import { crawlerFiles } from './http/plugins/crawler-files';
import { pages } from './http/plugins/pages';
import { sectionStyles } from './http/plugins/section-styles';
import { probes } from './http/plugins/probes';
import { sectionManifests } from './http/plugins/section-manifests';
import { ManifestRelay } from './manifest-relay';
import { OnDemandStyles } from './ssr/scoped-on-demand';
import { servedNow, type ServingState } from './http/serving-state';
import { forwardSignal } from './release-signals';
import { defaultHosts, parseHostRule, type HostRule } from '@portico/platform/http';
import { DEFAULT_REQUEST_BOUNDS, RequestBounds } from './request-bounds';
import { pageHeaders } from './security-headers';
import { ServedReleases, type ReleaseFeed } from './served-releases';
import { serverRendering, type RenderWorkerState, type ServerRendering, type ServerRenderingOptions } from './ssr/server-rendering';
import { staticFiles } from './static-files';

export { NOT_FOUND_PAGE } from './http/plugins/app-files';

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
  /** Where faults are reported (a config.json that cannot be served, a request that failed): each port's Fastify app logs on a child (`app`); silent without one. */
  log?: Logger;
  /**
   * The routes under `/api/` on the host's port but the beacon's (a Fastify
   * plugin): in `npm run serve`, the contact messages' (@portico/messages'
   * apiRoutes).
   */
  api?: FastifyPluginCallback;
  /**
   * The contact messages' endpoint for the form sent without script
   * (`POST /contact`, server/src/http/plugins/contact-form.ts): the same
   * store, checks and limits as `/api/contact`; undefined while it opens.
   */
  contactEndpoint?: () => ContactEndpoint | undefined;
  /**
   * Answers `/api/beacon` and `/api/visit` on the host's port
   * (server/src/beacon/beacon-endpoint.ts): the page's visit reports and
   * its visit ids; told of every page served, for which ids may be issued.
   */
  beacon?: BeaconEndpoint;
  /**
   * The page rendered on the server by the host's shell worker and a sandboxed
   * worker per section (server/src/ssr/):
   * on by default, `false` serves the client-rendered index.html only.
   */
  ssr?: false | Pick<ServerRenderingOptions, 'budgetMs' | 'heapMb' | 'cache' | 'sandbox' | 'onSignal' | 'styleLimits' | 'cpuBudget' | 'manifestChurn'>;
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
  /** Told of each answer on the four ports (ServerMetrics.observeRequest), with the app it was. */
  onAnswered?: (app: AppName, route: string | undefined, status: number, seconds: number) => void;
  /**
   * Releases (PostgreSQL): each section's active release decides its remote
   * in config.json, on every server at once, and preview links show one.
   * Without it, config.json is served as written.
   */
  releases?: ReleaseFeed;
}

/** How long an activation waits for the render workers to be warm with it before it is served anyway. */
const WARM_RELEASE_WITHIN_MS = 1200;

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
  /**
   * Stops taking visitors (SIGTERM): `/readyz` answers 503, the ports stop
   * accepting connections, each answer closes its connection, and what is
   * under way gets `withinMs` (DRAIN_WITHIN_MS) to finish before the
   * connections left are closed. Then `close()`.
   */
  drain(withinMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** How long a stopping server gives the requests under way: inside main.ts's 14 s stop, with room for the rest. */
const DRAIN_WITHIN_MS = 10_000;

/** One port's drain (RunningPortico.drain). */
function drainServer(server: Server, withinMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    // An answer sent while draining closes its connection; one idle between requests is closed at the next look.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), withinMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** A start that cannot go on (a build missing, a port taken): the reason, for the operator. */
class StartError extends Error {}

function distOf(rootDir: string, app: AppName): string {
  return path.join(rootDir, APP_DIRS[app], 'dist');
}

/**
 * The host's port: the page (server-rendered, or the built index.html),
 * config.json and the theme, robots and the sitemap, the sections'
 * stylesheets, the API and the beacon, then its files. Sets up the server
 * rendering, whose workers warm before the port opens.
 */
function hostRoutes(served: AppServer, options: PorticoServerOptions, state: ServingState): void {
  const { app } = served;
  const site = new HostSite(state);
  HostSite.decorate(app);
  state.readConfig = () => site.siteWith(undefined, site.served().active);
  const pageHeaders = (request: FastifyRequest, search: string) => site.pageHeaders(request, search);
  const files = staticFiles(distOf(options.rootDir, 'host'), { crossOrigin: false, pageHeaders });
  const page = builtPage(distOf(options.rootDir, 'host'), { pageHeaders, disk: files });
  const rendering: ServerRendering | undefined =
    state.ssr === false
      ? undefined
      : serverRendering({
          rootDir: options.rootDir,
          siteForHost: (host) => site.variantsFor(host, site.served()),
          siteOf: (request) => site.siteOf(request),
          pageHeaders: (request, search) => site.pageHeaders(request, search),
          ...state.ssr,
          onSignal: forwardSignal(state),
          log: state.log,
        });
  state.rendering = rendering;
  state.warmFor = (next) => rendering?.warm((host) => site.variantsFor(host, next), WARM_RELEASE_WITHIN_MS) ?? Promise.resolve();

  void app.register(probes, {
    notReady: () => {
      if (state.draining) return 'the server is stopping';
      if (rendering && rendering.worker().generation === undefined) return 'no render worker is warm yet';
      return undefined;
    },
  });
  void app.register(pages, { site, rendering, files: page });
  void app.register(configRoutes, { site });
  void app.register(sectionManifests, { site, relay: new ManifestRelay() });
  void app.register(crawlerFiles, { trustProxy: state.trustProxy });
  // Every page, rendered here or not, gets its sections' stylesheets scoped from here (issue 46).
  const onDemand = new OnDemandStyles({ log: state.log, prepared: rendering && ((request) => rendering.sectionStyles.preparedCopy(request)) });
  void app.register(sectionStyles, { rendering, onDemand, site });
  if (options.beacon) void app.register(beaconRoutes, { endpoint: options.beacon, served: () => servedNow(state) });
  if (options.api) void app.register(contactRoutes, { api: options.api, site, state });
  if (options.contactEndpoint) void app.register(contactForm, { endpoint: options.contactEndpoint, rendering });
  void app.register(appFiles, { files, pageHeaders });
}

/** A remote's port: its files, loaded by the host's page from another origin (CORS); its own page loads nothing from elsewhere. */
function remoteRoutes(served: AppServer, app: AppName, options: PorticoServerOptions): void {
  const headers = () => Promise.resolve(pageHeaders([]));
  const files = staticFiles(distOf(options.rootDir, app), { crossOrigin: true, pageHeaders: headers });
  void served.app.register(appFiles, { files, pageHeaders: headers });
}

function listen(server: Server, port: number, host: string | undefined, app: AppName): Promise<number> {
  return listenOn(server, {
    port,
    host,
    taken: (taken) => `port ${taken} (${app}) is already in use; stop what holds it or set PORT to move all four apps`,
    failed: (failing, error) => `cannot listen on port ${failing} (${app}): ${error.message}`,
  }).then(
    (address) => address.port,
    (error: unknown) => {
      throw error instanceof ListenError ? new StartError(error.message) : error;
    },
  );
}

/** How long the host's port waits for the first render worker to be warm before it opens anyway. */
const FIRST_WORKER_WAIT_MS = 30_000;

/**
 * Checks that `port` is free on `host` now (0: finds one), for the host's
 * server to listen on once the render worker is warm: a port taken stops the
 * start at once, not after the warm-up.
 */
async function freePort(port: number, host: string | undefined): Promise<number> {
  const probe = createServer();
  const free = await listen(probe, port, host, 'host');
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

/**
 * Waits (at most `waitMs`) for the first render worker to be warm, logging
 * why the host's port is not open yet, and, if none was warm in time, that
 * it opens with the client-rendered page. Returns the hosts it warmed for.
 */
async function firstWorkerWarm(rendering: ServerRendering, state: ServingState, waitMs: number): Promise<string[]> {
  const port = state.ports[0]!;
  state.log.info(
    `Portico: home, about and contact listen on ports ${state.ports.slice(1).join(', ')}; the host's port ${port} opens once the first render worker is warm (at most ${waitMs / 1000} s)`,
  );
  const started = performance.now();
  // The first visitor already gets a server-rendered page.
  const warmHosts = state.hosts
    .filter((rule) => rule.hostname === 'localhost' || rule.hostname === '127.0.0.1')
    .map((rule) => `${rule.hostname}:${rule.port ?? port}`);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([rendering.start(warmHosts), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  if (rendering.worker().generation === undefined) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    state.log.warn(`Portico: no render worker was warm after ${seconds} s; port ${port} opens anyway, serving the client-rendered page until one is`);
  }
  return warmHosts;
}

/** The state the four ports share, from the options, with the release feed's side set up. */
function servingState(options: PorticoServerOptions): ServingState {
  const state: ServingState = {
    configPath: options.configPath,
    basePort: options.basePort,
    ports: [],
    hosts: [...(options.hostnames ?? defaultHosts())].map((entry) => (typeof entry === 'string' ? parseHostRule(entry) : entry)),
    trustProxy: options.trustProxy ?? false,
    log: options.log ?? silentLogger,
    ssr: options.ssr,
  };
  const feed = options.releases;
  if (feed) {
    state.openPreview = (token) => feed.openPreview(token);
    state.healthToken = feed.healthToken && ((releases) => feed.healthToken!(releases));
    state.signal = feed.signal && ((signal) => feed.signal!(signal));
    state.releases = new ServedReleases({
      feed,
      warm: async (next) => {
        state.upcoming = next;
        try {
          await state.warmFor?.(next);
        } finally {
          state.upcoming = undefined;
        }
      },
      log: state.log,
    });
  }
  const { beacon } = options;
  state.pageServed = beacon && ((releases, page) => beacon.pageServed(releases, page));
  return state;
}

/** Serves the host and the three remotes, each from its own dist/ and port. */
export async function startPortico(options: PorticoServerOptions): Promise<RunningPortico> {
  // The host's build is its page; a remote's is the manifest the host loads.
  const missing = APP_NAMES.map((app) => path.join(distOf(options.rootDir, app), app === 'host' ? 'index.html' : 'mf-manifest.json'))
    .filter((file) => !existsSync(file))
    .map(path.dirname);
  if (missing.length > 0) {
    throw new StartError(`no build to serve in ${missing.join(', ')}: run \`npm run build\` first`);
  }

  const state = servingState(options);
  const limits = { ...DEFAULT_CLIENT_LIMITS, ...options.clientLimits };
  // The open-file limit bounds connections (unless set here), so one client's cannot take the process's last descriptor.
  const budget =
    limits.connections === undefined
      ? connectionBudget(openFileLimit(), limits.connectionsPerClient)
      : { connections: limits.connections, perClient: limits.connectionsPerClient, note: undefined };
  if (budget.note && !state.trustProxy) state.log.warn(budget.note);
  // Behind a trusted proxy every connection is the proxy's: no cap per client, the one over all still.
  const cap = new ConnectionCap(state.trustProxy ? Number.POSITIVE_INFINITY : budget.perClient, state.log, budget.connections);
  // Behind a trusted proxy every connection is the proxy's: bounded per connection only.
  const bounds = new RequestBounds({ ...DEFAULT_REQUEST_BOUNDS, ...(state.trustProxy ? { perClient: undefined } : {}) });
  const servers: AppServer[] = [];
  const close = () =>
    Promise.all([
      state.rendering?.close(),
      state.releases?.close(),
      ...servers.map(async ({ app, server }) => {
        await closeNow(server);
        await app.close();
      }),
    ]).then(() => undefined);

  try {
    for (const app of APP_NAMES) {
      const served = appServer({
        hosts: state.hosts,
        trustProxy: state.trustProxy,
        limits,
        cap,
        bounds,
        log: state.log.child({ app }),
        draining: () => state.draining === true,
        onAnswered: options.onAnswered && ((route, status, seconds) => options.onAnswered!(app, route, status, seconds)),
      });
      if (app === 'host') hostRoutes(served, options, state);
      else remoteRoutes(served, app, options);
      servers.push(served);
    }
    await Promise.all(servers.map(({ app }) => app.ready()));
    const portFor = (index: number) => (options.basePort === 0 ? 0 : options.basePort + index);
    state.ports[0] = await freePort(portFor(0), options.host);
    // What is active decides what the first workers warm up with.
    await state.releases?.start();
    // config.json's report (a bad field, a market without a lender, an old shape) is in the log from the start.
    await state.readConfig?.();
    // The remotes first: the render worker warms up on the manifests they serve.
    for (const [index, app] of APP_NAMES.entries()) {
      if (app === 'host') continue;
      state.ports[index] = await listen(servers[index]!.server, portFor(index), options.host, app);
    }
    // The page's port opens once it serves the server-rendered page: a load
    // balancer or a monitor sends visitors as soon as the port answers.
    if (state.rendering) {
      const hosts = await firstWorkerWarm(state.rendering, state, options.firstWorkerWaitMs ?? FIRST_WORKER_WAIT_MS);
      await warmAnswers(servers[0]!.app, hosts, state.trustProxy);
    }
    state.ports[0] = await listen(servers[0]!.server, state.ports[0], options.host, 'host').catch((error: unknown) => {
      // An ephemeral port someone took in the meantime: any other will do.
      if (options.basePort !== 0) throw error;
      return listen(servers[0]!.server, 0, options.host, 'host');
    });
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url: `http://localhost:${state.ports[0]!}`,
    ports: [...state.ports],
    renderWorker: () => state.rendering?.worker(),
    releases: () => servedNow(state),
    checkRender: (section, build) =>
      state.rendering
        ? state.rendering.checkRender(section, build)
        : Promise.resolve(['not run: this server renders pages in the browser only (PORTICO_SSR=0)']),
    drain: async (withinMs = DRAIN_WITHIN_MS) => {
      state.draining = true;
      await Promise.all(servers.map(({ server }) => drainServer(server, withinMs)));
    },
    close,
  };
}
