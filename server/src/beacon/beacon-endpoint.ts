import type { Logger } from '@portico/platform/logging';
import { BEACON_MAX_BYTES, type HealthNote, type VisitAnswer } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import { canaryNetwork, clientBlock, clientNetwork, CLIENTS_PER_BLOCK } from '@portico/messages';
import { BODY_TIME_MS, type BodyLimits } from '@portico/platform/http';
import {
  canaryNetworkKey,
  hourOf,
  judgedKeys,
  networkHash,
  parseVisitReport,
  parseVisitRequest,
  reportCounts,
  verifyHealthToken,
  verifyVisitId,
  type ServedCanary,
  type ServedState,
  type TakenReport,
} from '@portico/releases';
import { ReportAdmission, type AdmissionLimits } from './report-admission';
import { ReportOutcomes, type ReportOutcome } from './report-outcomes';
import { ReportQueue, type HealthRecorder } from './report-queue';
import { canaryOf, VisitIssuer } from './visit-issuer';
import type { VisitLedgerLimits } from './visit-ledger';
import { LRUCache } from 'lru-cache';

/**
 * The bound one source puts on the counts (docs/security.md, "The health
 * beacon"): at most this many reports are counted per network (an IPv4
 * address, or an IPv6 /64) per window, on each server. With n servers behind
 * a balancer a source can be counted n times that; over any span T it is at
 * most 30 x (T / 10 min + 1) per server.
 */
export const BEACON_REPORTS_PER_NETWORK = 30;
/**
 * And per IPv6 /48 over all its /64s, per window and server: ten clients'
 * budgets, so that the 65,536 /64s of one customer's /48 are not 65,536
 * budgets, while a carrier's /48 full of phones still reports far more than
 * the judge needs (docs/decisions/health-and-canaries.md).
 */
export const BEACON_REPORTS_PER_BLOCK = CLIENTS_PER_BLOCK * BEACON_REPORTS_PER_NETWORK;
const BEACON_WINDOW_MS = 10 * 60_000;

/** How often the counts gathered in memory are added to the database: a burst of reports is a handful of upserts. */
const BEACON_FLUSH_MS = 2000;

interface BeaconLimits extends AdmissionLimits {
  flushMs: number;
  /** Reports held while the database is away; reports past it are dropped. */
  pendingReports: number;
  /** How long the body may take once its headers are in. */
  bodyTimeMs: number;
  /** The pages served and ids issued per release set (VisitLedger). */
  visits: Partial<VisitLedgerLimits>;
}

const DEFAULT_BEACON_LIMITS: Readonly<BeaconLimits> = {
  perNetwork: BEACON_REPORTS_PER_NETWORK,
  perBlock: BEACON_REPORTS_PER_BLOCK,
  windowMs: BEACON_WINDOW_MS,
  networks: 100_000,
  nonces: 100_000,
  nonceMs: 10 * 60_000,
  flushMs: BEACON_FLUSH_MS,
  pendingReports: 50_000,
  bodyTimeMs: BODY_TIME_MS,
  visits: {},
};

/** The `what` of the reports' route (its refusals before the body are counted as `refused-early`). */
export const REPORTS = 'reports';

export interface BeaconEndpointOptions {
  /** Where the counts go; a function while the store may not be open yet (undefined until it is). */
  health: HealthRecorder | (() => HealthRecorder | undefined);
  /** The database's shared secret (ReleaseStore.previewSecret), undefined until the store is open. */
  secret: () => Promise<Buffer | undefined>;
  log: Logger;
  limits?: Partial<BeaconLimits>;
}

/**
 * What the beacon answers a report or a request for a visit id: a status,
 * and `{ error }` or the visit id; the route sends it (never cached).
 */
export type BeaconAnswer = { status: number; error?: string; headers?: Record<string, string>; body?: VisitAnswer };

/** Who sent a report, as the route read it: the visitor's address (`unknown` when there is none). */
interface ReportSource {
  /**
   * Kept in memory only: its clientNetwork and clientBlock are the
   * per-source caps' keys, its canaryNetwork the network a canary's judge
   * counts it by.
   */
  address: string;
}

export interface BeaconEndpoint {
  /** The body's limits (BEACON_MAX_BYTES at most, nothing past it read, within the body time), for the route's parser. */
  readonly bodyLimits: BodyLimits;
  /** Whether reports and ids can be taken now: the store open and its key read (else 503: nothing can be verified or kept). */
  open(): Promise<boolean>;
  /** A report refused before its body was read (`refused-early`) or whose body is not JSON (`malformed`): counted. */
  refused(outcome: 'refused-early' | 'malformed'): void;
  /** A report's answer, its body parsed, once open; `served` is what this server serves now (the canaries a report may count for). */
  report(json: unknown, source: ReportSource, served?: ServedState): BeaconAnswer;
  /** A visit id's answer likewise: for a page this server served, bound to its releases and their canaries. */
  visit(json: unknown, served?: ServedState): BeaconAnswer;
  /**
   * A page of these releases was served (a 200 or a 304 of `/`): one more
   * visit id may be issued for them. With `withVisit` (a page that can read
   * its VISIT_TIMING entry) that id is issued now, for the page's answer:
   * undefined when the store is not open yet or the release set has spent
   * its ids (the page then asks VISIT_PATH). Waits only for the store's
   * secret, read once.
   */
  pageServed(releases: HealthNote['releases'], page: { served: ServedState; withVisit: boolean }): Promise<string | undefined>;
  /** Adds what was gathered to the database now. */
  flush(): Promise<void>;
  /** Stops the timer and flushes what is left (once; counts the database refuses then are lost, and logged). */
  close(): Promise<void>;
  /** How many networks and nonces are held in memory now (each for its window at most, traffic or not). */
  remembered(): { networks: number; nonces: number };
  /** The reports by outcome since the start (REPORT_OUTCOMES). */
  outcomes(): Readonly<Record<ReportOutcome, number>>;
}

/** What sendBeacon sends with a string (text/plain;charset=UTF-8), or a Blob typed application/json; UTF-8 only. */
export function acceptedBeaconType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'text/plain' && type !== 'application/json') return false;
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8');
}

/** Each running canary's network key, by its number: derived once per canary. */
class CanaryKeys {
  // One canary at a time per section: a handful of keys, the oldest forgotten as canaries end.
  private readonly keys = new LRUCache<number, Buffer>({ max: 64 });

  of(secret: Buffer, canary: ServedCanary): Buffer {
    let derived = this.keys.get(canary.id);
    if (!derived) {
      this.keys.set(canary.id, (derived = canaryNetworkKey(secret, canary)));
    }
    return derived;
  }
}

/**
 * `POST /api/beacon`: the page's one report per visit (contract/beacon),
 * and `POST /api/visit`, where the page gets the visit id its report must
 * carry (docs/security.md, "The health beacon").
 *
 * An id is issued only for a page this server served (VisitIssuer: with the
 * page, or asked for by a page that came without; no more ids per release
 * set and window than pages, plus a small slack), signed over the page's
 * releases and their running canaries, and short-lived. A
 * report answers 204 whether or not it counted: a forged or expired id, a
 * release the id does not name, an id seen already or a source over its cap
 * count nothing and are told nothing. Reports gather in memory and go to the
 * database every couple of seconds, where each id counts once on every
 * server together; the answer never waits for the database.
 *
 * Nothing about the visitor is written as it is: the network a report came
 * from is a key of an in-memory map for minutes and, for a report a canary
 * is judged on, a keyed hash under that canary's key; the id's random part
 * is kept until the id expires.
 */
export function beaconEndpoint(options: BeaconEndpointOptions): BeaconEndpoint {
  const limits: BeaconLimits = { ...DEFAULT_BEACON_LIMITS, ...options.limits };
  // A per-client cap raised (PORTICO_BEACON_REPORTS_PER_NETWORK) raises its /48's with it: never below one client's.
  if (options.limits?.perBlock === undefined) limits.perBlock = CLIENTS_PER_BLOCK * limits.perNetwork;
  const healthOf = typeof options.health === 'function' ? options.health : () => options.health as HealthRecorder;
  const admission = new ReportAdmission(limits);
  const queue = new ReportQueue(limits.pendingReports, healthOf, options.log);
  const issuer = new VisitIssuer({ secret: options.secret, storeOpen: () => healthOf() !== undefined, limits: limits.visits });
  const canaryKeys = new CanaryKeys();
  const outcomes = new ReportOutcomes();

  /** Counts a report's outcome and says it. */
  const settle = (outcome: ReportOutcome, status: number, error?: string): BeaconAnswer => {
    outcomes.count(outcome);
    return { status, error };
  };

  const report = (json: unknown, source: ReportSource, served?: ServedState): BeaconAnswer => {
    const key = issuer.key!;
    const parsed = parseVisitReport(json);
    if (!parsed.ok) return settle('malformed', 400, parsed.error);
    const taken = parsed.report;

    const now = Date.now();
    const visit = verifyVisitId(key, taken.visit, new Date(now));
    if ('problem' in visit) return settle('unverified', 204);
    const counted = (Object.keys(taken.sections) as SectionId[]).filter((section) => visit.releases[section] === taken.sections[section]!.release);
    if (counted.length === 0) return settle('unknown-release', 204);
    // Sent twice to this server (hidden, then pagehide): dropped here; to two servers: the database counts it once.
    const { address } = source;
    if (!admission.admit(visit.nonce, clientNetwork(address), now, clientBlock(address))) return settle('repeated-or-over-cap', 204);
    // The judge's unit is coarser than the caps': a /48 or a /24 is one network, however many addresses it sends from.
    const network = canaryNetwork(address);

    const canary: TakenReport['canary'][number][] = [];
    for (const section of counted) {
      const releaseId = taken.sections[section]!.release;
      const running = canaryOf(served, section, visit.canaries[section], releaseId);
      if (!running) continue;
      // The network only as its hash under this canary's key: it is never kept as it is.
      const hashed = networkHash(canaryKeys.of(key, running), network);
      for (const judged of judgedKeys(taken, section)) canary.push({ canaryId: running.id, network: hashed, releaseId, key: judged });
    }
    queue.keep([{ visit: visit.nonce, expiresAt: visit.expiresAt, hour: hourOf(now), counts: reportCounts(taken, counted), canary }]);
    return settle('accepted', 204);
  };

  const issueVisit = (json: unknown, served?: ServedState): BeaconAnswer => {
    const parsed = parseVisitRequest(json);
    if (!parsed.ok) return { status: 400, error: parsed.error };
    const now = Date.now();
    const grant = verifyHealthToken(issuer.key!, parsed.token, new Date(now));
    if ('problem' in grant) return { status: 400, error: `token: not a report token of this site's (${grant.problem})` };
    const visit = issuer.issue(grant.releases, served, now);
    if (visit === undefined) {
      return {
        status: 429,
        error: 'no more visit ids for these releases than pages served',
        headers: { 'Retry-After': String(Math.ceil(issuer.retryAfterMs(now) / 1000)) },
      };
    }
    return { status: 200, body: { visit } };
  };

  const flush = (): Promise<void> => {
    const overCap = admission.takeOverCap();
    if (overCap > 0)
      options.log.info(
        `beacon: ${overCap} report(s) over the per-network cap (${limits.perNetwork} per ${limits.windowMs / 60_000} min, ${limits.perBlock} per IPv6 /48) were not counted`,
      );
    return queue.flush();
  };
  const timer = setInterval(() => {
    // Forgotten when their window ends even with no report coming to sweep them.
    admission.sweep(Date.now());
    void flush();
  }, limits.flushMs);
  timer.unref();

  return {
    // Nothing past the cap is read: a report is small, and a larger one is no report.
    bodyLimits: {
      limit: BEACON_MAX_BYTES,
      timeMs: limits.bodyTimeMs,
      drainUpTo: BEACON_MAX_BYTES,
      noun: 'the report',
      tooLarge: `a report is at most ${BEACON_MAX_BYTES} bytes`,
    },
    open: async () => (await issuer.readKey()) !== undefined,
    refused: (outcome) => outcomes.count(outcome),
    report,
    visit: issueVisit,
    pageServed: (releases, page) => issuer.pageServed(releases, page),
    // A flush under way may have begun before the last report: then once more.
    async flush() {
      await flush();
      await queue.flush();
    },
    async close() {
      clearInterval(timer);
      await flush();
      await queue.flush();
      if (queue.size > 0) options.log.warn(`beacon: ${queue.size} report(s) could not be stored before stopping`);
      admission.clear();
    },
    remembered: () => admission.remembered(),
    outcomes: () => outcomes.counts,
  };
}
