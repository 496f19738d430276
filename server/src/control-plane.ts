import { hostname } from 'node:os';
import { answerConfig } from '@portico/config-server/config-answer';
import type { MessageChannelName } from '@portico/messages';
import { noticeMailer } from '@portico/platform/notices';
import type { SectionId } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';
import type { HostRule } from '@portico/platform/http';
import {
  DEFAULT_HEALTH_RETENTION_DAYS,
  HEALTH_TOKEN_HOURS,
  signHealthToken,
  HealthStore,
  ReleaseStore,
  consoleFiles,
  startAlertSender,
  startCanaryJudge,
  startControlApi,
  startHealthPrune,
  startReleaseRecheck,
  startServerHeartbeat,
  stillServedBy,
  type AlertSender,
  type CanaryJudge,
  type JobClock,
  verifyPreview,
  type ControlApi,
  type MessagesAdmin,
  type MetricsSource,
  type PublishChecks,
  type Release,
} from '@portico/releases';
import { runPublishChecks, type RenderCheck } from '@portico/releases/checks';
import { parseConfig } from '@portico/shared-config/config';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@portico/platform/logging';
import { configReport } from './config-log';
import { staticFiles } from './static-files';
import { withReleases, type PreviewVisit, type ReleaseFeed } from './served-releases';

/** Released builds are immutable: a preview visit looks its release up once (preview links name any release, so bounded; the least recently previewed go first). */
const RELEASES_KEPT = 256;

export interface ControlPlaneOptions {
  /** The operator's config.json (PORTICO_CONFIG), or the default one. */
  configPath?: string;
  basePort: number;
  /** The page's ports once open (the default config.json names the remotes on them). */
  ports: () => readonly number[];
  /** PORTICO_CONTROL_TOKEN: accepted as an integrator token, actor `environment`. */
  environmentToken?: string;
  /** Where a fresh install writes its owner token. */
  dataDir?: string;
  /** The control API's address; port 0 for any (tests); `hostnames`: the names it answers besides loopback's and its address's (PORTICO_CONTROL_HOSTS). */
  listen: { port: number; host: string; hostnames?: readonly HostRule[] };
  publicUrl: string;
  messages?: MessagesAdmin;
  /** Where this server delivers contact messages (none: they wait in the store); the inbox says so. */
  messageChannels?: readonly MessageChannelName[];
  /** The render check of the server's section workers (RunningPortico.checkRender). */
  renderCheck: () => RenderCheck | undefined;
  /** How many days of health are kept (PORTICO_HEALTH_RETENTION_DAYS, 30 by default). */
  healthRetentionDays?: number;
  /** `false`: no canary judge on this server (canaries are then decided by the other servers, or by hand). */
  judgeCanaries?: boolean;
  /** The operator console's built files (console/dist), served at the control port's `/`; none: 404 there. */
  consoleDir?: string;
  /** What the alerts are signed with (PORTICO_WEBHOOK_SECRET) and mailed through (PORTICO_SMTP_URL…). */
  alerts?: { secret?: string; mail?: { smtpUrl: string; from: string; allowPlaintext?: boolean } };
  /** The server's metrics, at the control port's `GET /metrics` for a token with the metrics scope; none: not served. */
  metrics?: MetricsSource;
  /** How often the judge runs (JUDGE_EVERY_MS by default); tests judge now instead. */
  judgeEveryMs?: number;
  /** The store's clock (ReleaseStoreOptions.now): tests pin it; none, the sessions read Date.now and canary starts the database's now(). */
  now?: () => number;
  /** The scheduled jobs' time and timers (the system's by default; a test's hand-turned one). */
  clock?: JobClock;
  /** The control plane's logger; the control API's Fastify app logs each request's lines on a child (`component: 'control-api'`). */
  log: Logger;
}

export interface ControlPlane {
  store: ReleaseStore;
  /** Each release's health from the visit reports, on the same database: the beacon endpoint writes to it. */
  health: HealthStore;
  /** The canary judge of this server (none when turned off). */
  judge: CanaryJudge | undefined;
  /** This server's sender of the alerts' outbox. */
  alerts: AlertSender;
  api: ControlApi;
  /** Checks each active release's files again now: a build removed or changed on its host is marked broken. */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The origins a section's releases may be fetched from: the origin of the
 * file's own `remotes[section]` and every `allowedRemoteOrigins` entry. The
 * server requests nothing anywhere else (a publish naming another origin is
 * refused before any request).
 */
async function allowedOriginsOf(section: SectionId, options: Pick<ControlPlaneOptions, 'configPath' | 'basePort' | 'ports'>): Promise<string[]> {
  const answer = await answerConfig({ configPath: options.configPath, basePort: options.basePort, ports: options.ports(), hostHeader: 'localhost' });
  if (answer.value === undefined) return [];
  const { config } = parseConfig(answer.value);
  const own = config.remotes[section];
  return [...(own && URL.canParse(own) ? [new URL(own).origin] : []), ...config.allowedRemoteOrigins];
}

/**
 * A release feed for the page server over a store that may not be open yet
 * (a database server still being waited for): until it is, reading fails
 * (config.json is served as written) and the listener is attached once it
 * opens, with a read straight away. `pollMs`: the store watch's catch-up
 * poll (WATCH_POLL_MS by default; tests ask for less).
 */
export function releaseFeed(store: Promise<ReleaseStore>, options: { health?: boolean; pollMs?: number } = {}): ReleaseFeed {
  let opened: ReleaseStore | undefined;
  let secret: Buffer | undefined;
  void store.then(
    async (value) => {
      opened = value;
      // Read once: the page's health tokens are signed synchronously with it.
      secret ??= await value.previewSecret().catch(() => undefined);
    },
    () => undefined,
  );
  /** The health token of each release set served, renewed an hour before it expires: one per cache entry, not per visitor (release sets come and go: bounded, the least recently served go first). */
  const tokens = new LRUCache<string, { token: string; renewAt: number }>({ max: RELEASES_KEPT });
  /** The same tokens by the ids object asked with (kept as long as whoever asks keeps it). */
  const tokensBySet = new WeakMap<object, { token: string; renewAt: number }>();
  const releases = new LRUCache<string, Release>({ max: RELEASES_KEPT });
  const releaseById = async (id: string): Promise<Release | undefined> => {
    const known = releases.get(id);
    if (known) return known;
    const found = await opened?.releases.get(id);
    if (!found) return undefined;
    releases.set(id, found);
    return found;
  };
  return {
    read: () => (opened ? opened.releases.served() : Promise.reject(new Error('the release store is not open yet'))),
    async watch(onChange, onRead) {
      let closed = false;
      let watching: { close(): Promise<void> } | undefined;
      void store.then(
        async (value) => {
          if (closed) return;
          watching = await value.watch(() => onChange(), { pollMs: options.pollMs, onRead });
          onChange();
        },
        () => undefined,
      );
      return {
        async close() {
          closed = true;
          await watching?.close();
        },
      };
    },
    healthToken(releases) {
      if (!secret || options.health === false) return undefined;
      const now = Date.now();
      // The page path asks with the same object for one set of releases (HostSite keeps it): no key made at each request.
      const same = tokensBySet.get(releases);
      if (same && now < same.renewAt) return same.token;
      const key = JSON.stringify(releases);
      let held = tokens.get(key);
      if (!held || now >= held.renewAt) {
        held = {
          token: signHealthToken(secret, { releases }, new Date(now + HEALTH_TOKEN_HOURS * 3_600_000)),
          renewAt: now + (HEALTH_TOKEN_HOURS - 1) * 3_600_000,
        };
        tokens.set(key, held);
      }
      tokensBySet.set(releases, held);
      return held.token;
    },
    async signal(signal) {
      // Before the store is open nothing is judged yet: what is seen then is not kept.
      await opened?.releases.recordSignal(signal);
    },
    async openPreview(token): Promise<PreviewVisit> {
      if (!opened) return { refused: 'invalid' };
      secret ??= await opened.previewSecret();
      const grant = verifyPreview(secret, token);
      if ('problem' in grant) return { refused: grant.problem.startsWith('expired') ? 'expired' : 'invalid' };
      const release = await releaseById(grant.release);
      // A retired section's links stop working: its release is no longer the catalogue's to show.
      if (!release || (await opened.sections.get(release.section))?.retired) return { refused: 'invalid' };
      return { release, expiresAt: grant.expiresAt };
    },
  };
}

/**
 * The checks a publish runs, with this server's render workers, the
 * sections' allowed origins (config.json read afresh for each publish, so
 * an origin added there counts from the next one) and the page's public
 * origin, as whose browser every file is fetched.
 */
export function publishChecksFor(options: Pick<ControlPlaneOptions, 'configPath' | 'basePort' | 'ports' | 'renderCheck' | 'publicUrl'>): PublishChecks {
  return async ({ section, manifestUrl, grant, origins }) =>
    runPublishChecks({
      section,
      manifestUrl,
      grant,
      // An added section's own origins; a built-in one's, config.json's.
      allowedOrigins: origins ?? (await allowedOriginsOf(section, options)),
      pageOrigin: new URL(options.publicUrl).origin,
      renderCheck: options.renderCheck(),
    });
}

/** The release and health stores, open on one database: what the page needs before its ports open. */
export interface ControlStores {
  store: ReleaseStore;
  health: HealthStore;
}

/**
 * Opens the release and health stores on `database` (their migrations run):
 * apart from startControlPlane so that the server can read the active
 * releases before its ports open, and start the control API beside the
 * render workers' warm-up rather than before it.
 */
export async function openControlStores(database: Database, options: Pick<ControlPlaneOptions, 'environmentToken' | 'now'>): Promise<ControlStores> {
  const store = await ReleaseStore.open(database, { environmentToken: options.environmentToken, now: options.now });
  const health = await HealthStore.open(database);
  return { store, health };
}

/**
 * On stores open (openControlStores, or opened here from `database`): makes
 * sure there is an owner token, starts the control API and the scheduled
 * jobs of releases/src/jobs/ (alerts, recheck, health prune, heartbeat,
 * canary judge), all on `options.clock`.
 */
export async function startControlPlane(opened: Database | ControlStores, options: ControlPlaneOptions): Promise<ControlPlane> {
  const { store, health } = 'store' in opened ? opened : await openControlStores(opened, options);
  if (options.dataDir) {
    const written = await store.ownerToken.ensure(options.dataDir);
    if (written) options.log.info(`control: a new owner token (every scope) is in ${written}; npm run release on this machine reads it from there`);
  }
  // Every server sends the alerts' outbox; its claims make each attempt one server's. Before the API,
  // which says what it can send and sends a test alert through it.
  const alerts = startAlertSender({
    store,
    secret: options.alerts?.secret,
    mailer: options.alerts?.mail && noticeMailer(options.alerts.mail),
    health: health.health,
    // `job`, not `component`: the control plane's logger names its component already (pino would write the key twice).
    log: options.log.child({ job: 'alerts' }),
    clock: options.clock,
  });
  const api = await startControlApi({
    store,
    alerts,
    messageChannels: options.messageChannels,
    port: options.listen.port,
    host: options.listen.host,
    hostnames: options.listen.hostnames,
    publishChecks: publishChecksFor(options),
    messages: options.messages,
    metrics: options.metrics,
    publicUrl: options.publicUrl,
    log: options.log,
    health: health.health,
    healthSeries: health.series,
    console: options.consoleDir === undefined ? undefined : consoleFiles(options.consoleDir, staticFiles),
    configuredRemotes: async () => {
      const answer = await answerConfig({ configPath: options.configPath, basePort: options.basePort, ports: options.ports(), hostHeader: 'localhost' });
      return answer.value === undefined ? {} : parseConfig(answer.value).config.remotes;
    },
    // The file as visitors get it: the operator's, with the active releases' remotes in it.
    configReport: async () => {
      const answer = await answerConfig({ configPath: options.configPath, basePort: options.basePort, ports: options.ports(), hostHeader: 'localhost' });
      return configReport(withReleases(answer, (await store.releases.served()).active));
    },
  });

  // The scheduled jobs (releases/src/jobs/): each on its own timers, none on a visitor's request.
  const { log } = options;
  const recheck = startReleaseRecheck({
    store,
    stillServed: stillServedBy({ allowedOrigins: (section) => allowedOriginsOf(section, options), pageOrigin: new URL(options.publicUrl).origin }),
    log: log.child({ job: 'recheck' }),
    clock: options.clock,
  });
  const prune = startHealthPrune({
    health,
    canaries: store.canaries,
    retentionDays: options.healthRetentionDays ?? DEFAULT_HEALTH_RETENTION_DAYS,
    log: log.child({ job: 'health-prune' }),
    clock: options.clock,
  });
  const heartbeat = startServerHeartbeat({ store, server: { host: hostname(), port: options.basePort, pid: process.pid }, clock: options.clock });

  // Every server judges the canaries; the section's row lock makes each decision once.
  const judge =
    options.judgeCanaries === false
      ? undefined
      : startCanaryJudge({
          store,
          counts: (canary, activeId) => store.canaries.counts(canary, activeId),
          everyMs: options.judgeEveryMs,
          clock: options.clock,
          log: options.log.child({ job: 'canary-judge' }),
        });

  return {
    store,
    health,
    api,
    judge,
    alerts,
    recheck: () => recheck.recheckNow(),
    async close() {
      await judge?.close();
      await alerts.stop();
      await heartbeat.close();
      await api.close();
      await recheck.close();
      await prune.close();
    },
  };
}
