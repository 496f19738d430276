import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataFolderBusyError, DataFolderError, EMBEDDED_DATABASE_FOLDER, lockDataFolder, privateDataFolder } from '@portico/platform/data-folder';
import type { Logger } from '@portico/platform/logging';
import { mailChannel, webhookChannel, type Channel, type MessageChannelName } from './delivery/channels';
import { startDeliverer, type Deliverer } from './delivery/deliverer';
import { backoffSeconds } from '@portico/platform/notices';
import type { ContactEndpoint, RequestOriginOf } from './http/contact-routes';
import { retentionDays } from './retention';
import type { ContactSettings } from './settings';
import { openEmbeddedDatabase, openServerDatabase, type Database } from '@portico/platform/database';
import { MessageStore } from './store/message-store';

export interface ContactServiceOptions {
  settings: ContactSettings;
  /** The config.json whose `contact.retentionDays` applies, read afresh at each retention run. */
  configPath?: string;
  /** The page's origin and the client's address for a request; by default the package's own reading. */
  /** The server's reading of a request's origin and address: the one place that knows about a trusted proxy. */
  requestOrigin: RequestOriginOf;
  /** The service's lines, each at its own level: a failure error, a setting that loses something warn, routine info. */
  log: Logger;
  /** How often the retention job runs. */
  retentionEveryMs?: number;
  /** How often the deliverer looks for due messages. */
  pollMs?: number;
  /**
   * With DATABASE_URL, a server that cannot be reached is tried again (after
   * `firstRetryMs`, 1 s by default, doubling up to 30 s) until it answers or
   * `signal` aborts, instead of failing the start: `npm run serve` takes
   * visitors meanwhile, answering 503 on /api/. The embedded database is
   * never waited for: what stops it opening (a busy or unsafe folder) does
   * not pass.
   */
  waitForDatabase?: { signal?: AbortSignal; firstRetryMs?: number };
}

export interface ContactService {
  /** What `POST /api/contact` stores into, for the host's port's `/api/` routes (apiRoutes). */
  endpoint: ContactEndpoint;
  store: MessageStore;
  /**
   * The store's database, for the other packages that keep their tables in
   * it (the releases): the embedded database is one process per folder, so
   * they must share this object rather than open the folder again.
   */
  database: Database;
  /** One line for the start-up log: where messages go. */
  summary: string;
  /** Where messages are delivered (PORTICO_WEBHOOK_URL, PORTICO_SMTP_URL); none: they wait in the store until one is set. */
  channels: readonly MessageChannelName[];
  /** Messages this server stored since it started (not repeats of one already stored), for the metrics. */
  storedHere(): number;
  /** Stops delivering (finishing what is under way) and the retention job, and closes the store. */
  close(): Promise<void>;
  /**
   * For a stop that cannot wait any longer: removes the lock at once,
   * before the process exits. The database is left as a killed
   * process leaves it (PGlite recovers it at the next start), and a message
   * not yet delivered stays in the outbox.
   */
  abandon(): void;
}

class ContactStartError extends Error {}

/** An opened store; `tightened`: how many folders and files of the data folder, open to other users, were made private (the caller says so). */
export interface OpenedStore {
  store: MessageStore;
  release(): void;
  tightened: number;
}

/** Opens the store, embedded (taking the data folder) or on the server. */
export async function openStore(settings: ContactSettings): Promise<OpenedStore> {
  if (settings.databaseUrl) {
    const db = openServerDatabase(settings.databaseUrl);
    try {
      return { store: await MessageStore.open(db), release: () => undefined, tightened: 0 };
    } catch (error) {
      await db.close();
      // `postgres://user@/db?host=/socket/dir` has no host, which WHATWG's URL refuses with a user name.
      const where = URL.canParse(settings.databaseUrl) ? new URL(settings.databaseUrl).host || 'its socket' : 'its socket';
      throw new ContactStartError(`cannot open the message store on the PostgreSQL server at ${where}: ${(error as Error).message}`);
    }
  }
  let lock;
  let tightened = 0;
  try {
    // The stored messages are for this user alone: files PGlite or PostgreSQL
    // create from now on are owner-only (process-wide, and nothing else this
    // process writes is meant for others), and a folder an older version left
    // open to others is closed before the database reads it.
    process.umask(0o077);
    const folder = privateDataFolder(settings.dataDir);
    if (!folder.created) tightened = folder.tightened;
    lock = lockDataFolder(settings.dataDir);
  } catch (error) {
    if (error instanceof DataFolderBusyError) {
      throw new ContactStartError(`${error.message}: the embedded database serves one process; give each server its own PORTICO_DATA_DIR, or use DATABASE_URL`);
    }
    if (error instanceof DataFolderError) throw new ContactStartError(error.message);
    throw error;
  }
  let store;
  try {
    store = await MessageStore.open(await openEmbeddedDatabase(path.join(settings.dataDir, EMBEDDED_DATABASE_FOLDER)));
    // PGlite unpacks a new database's files world-readable (0666), whatever the umask.
    privateDataFolder(settings.dataDir);
    return { store, release: lock.release, tightened };
  } catch (error) {
    await store?.close();
    lock.release();
    throw new ContactStartError(`cannot open the embedded message store in ${settings.dataDir}: ${(error as Error).message}`);
  }
}

function channelsOf(settings: ContactSettings): Channel[] {
  const channels: Channel[] = [];
  if (settings.webhook) channels.push(webhookChannel(settings.webhook));
  if (settings.mail) channels.push(mailChannel(settings.mail));
  return channels;
}

/** The longest wait between two tries of a database server that does not answer. */
const RETRY_AT_MOST_MS = 30_000;

/** openStore, trying a database server again until it answers (see ContactServiceOptions.waitForDatabase). */
async function openStoreWaiting(settings: ContactSettings, log: Logger, wait: ContactServiceOptions['waitForDatabase']): Promise<OpenedStore> {
  if (!wait || !settings.databaseUrl) return openStore(settings);
  for (let attempt = 0; ; attempt++) {
    try {
      return await openStore(settings);
    } catch (error) {
      if (!(error instanceof ContactStartError)) throw error;
      const waitMs = Math.min(RETRY_AT_MOST_MS, (wait.firstRetryMs ?? 1000) * 2 ** attempt);
      // A warning, not an error: the server serves meanwhile, and the wait is what the setting asks for.
      log.warn(
        { problem: error.message, retryInSeconds: waitMs / 1000 },
        'contact: the message store cannot be opened yet; until then /api/contact answers 503',
      );
      await sleep(waitMs, undefined, { signal: wait.signal });
    }
  }
}

/**
 * Everything behind `POST /api/contact` in one server process: the store,
 * the deliverer and the retention job. The lender reads and deletes
 * messages through the control API (@portico/releases), which the server
 * starts on this service's database.
 */
export async function startContactService(options: ContactServiceOptions): Promise<ContactService> {
  const { settings, log } = options;
  const { store, release, tightened } = await openStoreWaiting(settings, log, options.waitForDatabase);
  if (tightened > 0)
    log.warn(
      { dataDir: settings.dataDir, tightened },
      'contact: the data folder was open to other users: its folders and files were made private to this user (0700/0600)',
    );

  const channels = channelsOf(settings);
  let deliverer: Deliverer | undefined;
  if (channels.length > 0) {
    deliverer = startDeliverer({
      store,
      channels,
      log,
      pollMs: options.pollMs,
      maxAttempts: settings.attempts,
      leaseSeconds: settings.leaseSeconds,
      retryDelaySeconds: (attempt) => backoffSeconds(attempt, settings.retrySeconds),
    });
    if (settings.mail?.allowPlaintext) {
      log.warn(
        'contact: PORTICO_SMTP_ALLOW_PLAINTEXT=1: mail goes to the SMTP server without STARTTLS if it offers none, the password and the messages readable on the way',
      );
    }
  } else {
    log.warn('contact: no delivery channel is set (PORTICO_WEBHOOK_URL or PORTICO_SMTP_URL): messages are stored and queued until one is');
  }

  const applyRetention = async () => {
    const { days, problem } = await retentionDays(options.configPath);
    // config.json's retention set aside for the default: the file is the operator's to fix.
    if (problem) log.warn({ problem }, 'contact: the retention setting is set aside');
    try {
      const deleted = await store.deleteOlderThan(days);
      if (deleted > 0) log.info({ deleted, days }, 'contact: deleted messages past their retention');
    } catch (error) {
      log.error({ err: error }, 'contact: the retention job failed (tried again at its next run)');
    }
  };
  let retention: Promise<void> = applyRetention();
  const retentionTimer = setInterval(() => {
    retention = applyRetention();
  }, options.retentionEveryMs ?? 3_600_000);
  retentionTimer.unref();

  let storedHere = 0;
  const endpoint: ContactEndpoint = {
    store,
    requestOrigin: options.requestOrigin,
    rateLimit: settings.rateLimit,
    onStored: () => {
      storedHere += 1;
      deliverer?.wake();
    },
  };

  const where = settings.databaseUrl ? 'the PostgreSQL server (DATABASE_URL)' : `the embedded database in ${settings.dataDir}`;
  const to = channels.map((channel) => channel.name).join(' and ') || 'nowhere yet';
  return {
    endpoint,
    store,
    database: store.db,
    summary: `Contact messages are stored in ${where} and delivered to ${to}`,
    channels: channels.map((channel) => channel.name),
    storedHere: () => storedHere,
    async close() {
      clearInterval(retentionTimer);
      await deliverer?.stop();
      await retention;
      await store.close();
      release();
    },
    abandon() {
      release();
    },
  };
}
