import path from 'node:path';
import { apiRoutes, startContactService, type ContactService } from '@portico/messages';
import { createLogger, type Logger } from '@portico/platform/logging';
import { readSettings } from '@portico/platform/settings';
import type { ReleaseStore } from '@portico/releases';
import { beaconEndpoint, type BeaconEndpoint } from './beacon/beacon-endpoint';
import { openControlStores, releaseFeed, startControlPlane, type ControlPlane, type ControlStores } from './control-plane';
import { DEFAULT_CONFIG_PATH } from '@portico/config-server/config-answer';
import { startPortico, type RunningPortico } from './portico-server';
import { visitorOf } from '@portico/platform/http';
import { workerUsers } from './ssr/sandbox';
import { dataHeaders } from './security-headers';
import { metricSourcesOf } from './metrics/metric-sources';
import { ServerMetrics } from './metrics/server-metrics';

// Every request is answered in its own guarded promise; a rejection that
// still escapes is a bug to log, not a reason to take four sites down.
process.on('unhandledRejection', (reason: unknown) => fault('unhandled rejection', reason));

/** A fault of the process itself: on the logger once there is one, else plain text on stderr. */
function fault(what: string, error: unknown): void {
  if (logger) logger.error({ err: error }, what);
  else console.error(`Portico: ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

// npm runs workspace scripts inside the workspace; paths the operator typed
// are relative to where they typed them.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const rootDir = path.resolve(__dirname, '../..');

/**
 * SIGTERM or Ctrl-C ends the process within this long in every state
 * (starting, serving, a worker stuck): what is under way gets the time to
 * finish, then the process exits anyway, its lock removed. A delivery not
 * finished by then stays in the outbox for the next start.
 */
const STOP_WITHIN_MS = 14_000;

let running: RunningPortico | undefined;
let contact: ContactService | undefined;
let control: ControlPlane | undefined;
let beacon: BeaconEndpoint | undefined;
/** The one logger (PORTICO_LOG_LEVEL), once the settings are read; a fault before then is said on stderr as plain text. */
let logger: Logger | undefined;
let stopping = false;
/** Ends the wait for a database server that has not answered yet. */
const databaseWait = new AbortController();

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  databaseWait.abort();
  setTimeout(() => {
    fault('stopping', new Error(`not stopped cleanly within ${STOP_WITHIN_MS / 1000} s; exiting (undelivered messages stay queued)`));
    contact?.abandon();
    process.exit(code === 0 ? 1 : code);
  }, STOP_WITHIN_MS);
  void (async () => {
    // Visitors first: no new ones, and what is under way finishes (nginx sends the next request to another server).
    await running?.drain().catch((error: unknown) => fault('draining the server', error));
    await control?.close().catch((error: unknown) => fault('stopping the control API', error));
    await running?.close().catch((error: unknown) => fault('stopping the server', error));
    // The health counts gathered since the last flush, while the database is still open.
    await beacon?.close().catch((error: unknown) => fault('storing the last health counts', error));
    await contact?.close().catch((error: unknown) => fault('closing the message store', error));
    process.exit(code);
  })();
}

// From the first moment: a stop asked for while the server starts (a worker
// warming, the store opening) ends it too, rather than waiting or leaving the lock.
process.once('SIGTERM', () => stop(0));
process.once('SIGINT', () => stop(0));

/** The beacon endpoint on the stores once open (the control plane's, or those opened before it). */
function visitReports(opened: () => ControlStores | undefined, options: { log: Logger; perNetwork: number | undefined }): BeaconEndpoint {
  return beaconEndpoint({
    health: () => opened()?.health,
    secret: () => opened()?.store.previewSecret() ?? Promise.resolve(undefined),
    log: options.log,
    limits: options.perNetwork === undefined ? {} : { perNetwork: options.perNetwork },
  });
}

/** The program `npm run serve` runs, until SIGTERM or SIGINT; `ready` is called once the page's port is open. */
async function main(ready: () => void): Promise<void> {
  // Every setting, read once (a bad one stops the start, named): docs/settings.md.
  const { environment: env, configPath, port, controlPort, publicUrl, contact: settings } = readSettings(process.env, { rootDir, invokedFrom });
  // The one logger, JSON lines on stderr (readable ones on a terminal); stdout keeps the plain lines people and tests wait for.
  const root = createLogger({ level: env.PORTICO_LOG_LEVEL });
  logger = root;
  // Each component logs on a child of its own (`component` on its lines).
  const logOf = (component: string) => root.child({ component });
  // This server's metrics, read at the control port's GET /metrics: each value from the part that holds it, once that part runs.
  const metrics = new ServerMetrics();
  metrics.watch(metricSourcesOf({ running: () => running, contact: () => contact, control: () => control, beacon: () => beacon }));
  const trustProxy = env.PORTICO_TRUST_PROXY;
  // PORTICO_HEALTH=0: no visit report (no health note in the page, so no
  // web-vitals and no beacon), no endpoint for one and no canary judge:
  // canaries then run until promoted or aborted by hand.
  const healthOn = env.PORTICO_HEALTH;
  const contactStarting = startContactService({
    settings,
    configPath: configPath ?? DEFAULT_CONFIG_PATH,
    // The page's origin as the visitor sees it: the server's one reading of
    // Host and, behind a trusted proxy, X-Forwarded-*.
    requestOrigin: (req) => {
      const visitor = visitorOf(req, { trustProxy });
      return { origin: visitor.origin, address: visitor.address ?? 'unknown' };
    },
    log: logOf('contact'),
    waitForDatabase: { signal: databaseWait.signal },
  });
  // Awaited below; a stop during the wait rejects it, which is no fault.
  contactStarting.catch(() => undefined);
  // Readiness is the render worker, not the database. The embedded database
  // runs in this process and holds it while it opens (initdb: seconds on a
  // first start), so it is open before any port is. A database server is
  // waited for while the ports open, /api/ answering 503 until it answers:
  // one that is slow or away keeps no server from taking visitors.
  if (!settings.databaseUrl) contact = await contactStarting;
  if (stopping) return;

  // Releases live in the same database: the control API (port + 4) opens on
  // it once it is open, and until then config.json is served as written.
  let storeOpened: (store: ReleaseStore) => void = () => undefined;
  const releaseStore = new Promise<ReleaseStore>((resolve) => (storeOpened = resolve));
  const startControl = async (service: ContactService, stores?: ControlStores) => {
    control = await startControlPlane(stores ?? service.database, {
      configPath,
      basePort: port,
      ports: () => running?.ports ?? [],
      environmentToken: env.PORTICO_CONTROL_TOKEN,
      dataDir: settings.databaseUrl ? undefined : settings.dataDir,
      listen: { port: controlPort, host: env.PORTICO_CONTROL_HOST, hostnames: env.PORTICO_CONTROL_HOSTS },
      publicUrl,
      messages: service.store,
      messageChannels: service.channels,
      healthRetentionDays: env.PORTICO_HEALTH_RETENTION_DAYS,
      judgeCanaries: healthOn,
      // The console on the control port only (never the page's ports, never the nginx site).
      consoleDir: path.join(rootDir, 'console', 'dist'),
      metrics: () => metrics.text(),
      // Alerts are signed and mailed as the contact messages are.
      alerts: { secret: settings.webhook?.secret, mail: settings.mail },
      renderCheck: () => {
        const check = running?.checkRender;
        // The worker keys a build by its hash, as the page's builds are keyed.
        return check && ((section, build) => check(section, { key: build.integrity, url: build.url, code: build.code }));
      },
      log: logOf('control'),
    });
    storeOpened(control.store);
    console.log(`The control API (releases, tokens, messages) listens at ${control.api.url}`);
  };
  // The embedded database: the stores open before any port (the first
  // workers warm with the active releases), and the control API starts
  // beside the render workers' warm-up, which it used to wait for (issue 47:
  // about a second of the start on a warm data folder). Its line still
  // comes before the ready line.
  let stores: ControlStores | undefined;
  let controlStarting: Promise<void> | undefined;
  if (contact) {
    stores = await openControlStores(contact.database, { environmentToken: env.PORTICO_CONTROL_TOKEN });
    storeOpened(stores.store);
    controlStarting = startControl(contact, stores);
    // Awaited below, once the ports are open.
    controlStarting.catch(() => undefined);
  }
  if (stopping) return;
  // The page's visit reports. Until the stores are open (a database
  // server still awaited) it answers 503: a report cannot be verified
  // without the shared secret, and the page never reads the answer.
  beacon = healthOn ? visitReports(() => control ?? stores, { log: logOf('beacon'), perNetwork: env.PORTICO_BEACON_REPORTS_PER_NETWORK }) : undefined;
  try {
    running = await startPortico({
      rootDir,
      basePort: port,
      host: env.HOST,
      configPath,
      hostnames: env.PORTICO_HOSTS,
      trustProxy,
      log: logOf('server'),
      // Until the store is open (a database server still awaited), every /api/ path answers 503.
      api: (app, _options, done) => {
        void app.register(apiRoutes, { endpoint: () => contact?.endpoint, headers: dataHeaders() });
        done();
      },
      contactEndpoint: () => contact?.endpoint,
      beacon,
      // PORTICO_SSR=0: the client-rendered page only, as a static host serves it.
      ssr: !env.PORTICO_SSR
        ? false
        : {
            budgetMs: env.PORTICO_SSR_BUDGET_MS,
            cache: env.PORTICO_SSR_CACHE,
            // How section code is contained (bubblewrap, another user, or refused): server/src/ssr/sandbox.ts.
            sandbox: { setting: env.PORTICO_SSR_SANDBOX, users: workerUsers(env.PORTICO_SSR_UIDS, port) },
          },
      clientLimits: env.PORTICO_CONNECTIONS_PER_CLIENT === undefined ? {} : { connectionsPerClient: env.PORTICO_CONNECTIONS_PER_CLIENT },
      onAnswered: (app, route, status, seconds) => metrics.observeRequest(app, route, status, seconds),
      releases: releaseFeed(releaseStore, { health: healthOn }),
    });
    await controlStarting;
  } catch (error) {
    // A control API still starting is let finish, then closed with the rest.
    await controlStarting?.catch(() => undefined);
    await running?.close();
    running = undefined;
    await control?.close();
    control = undefined;
    await contact?.close();
    contact = undefined;
    throw error;
  }
  if (stopping) return;
  if (configPath) console.log(`Serving config.json from ${configPath}`);
  if (contact) console.log(contact.summary);
  console.log(`Portico is serving at ${running.url}`);
  ready();
  if (!contact) {
    contact = await contactStarting;
    if (stopping) return;
    console.log(contact.summary);
    await startControl(contact);
  }
}

/**
 * Runs the program; a failure to start is logged and ends the process.
 * `onReady`: told once the page's port is open (server/serve.cjs puts the
 * start's lowered CPU priority back then: compile/start-priority.cjs).
 */
export function servePortico(options: { onReady?: () => void } = {}): void {
  main(options.onReady ?? (() => undefined)).catch((error: unknown) => {
    console.error(`Portico could not start: ${error instanceof Error ? error.message : String(error)}`);
    stop(1);
  });
}

// `npm run serve` runs this file (server/serve.cjs, once compiled).
if (require.main === module) servePortico();
