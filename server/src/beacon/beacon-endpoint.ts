import { wholeNumberFrom } from '@portico/platform/env-number';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BEACON_MAX_BYTES } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import { BODY_TIME_MS } from '@portico/messages';
import { hourOf, parseVisitReport, reportCounts, verifyHealthToken, type HealthCount, type HealthStore } from '@portico/releases';
import { dataHeaders } from '../security-headers';

/**
 * The bound one source puts on the counts (docs/security.md, "The health
 * beacon"): at most this many reports are counted per network (an IPv4
 * address, or an IPv6 /64) per window, on each server. With n servers behind
 * a balancer a source can be counted n times that; over any span T it is at
 * most 30 x (T / 10 min + 1) per server.
 */
export const BEACON_REPORTS_PER_NETWORK = 30;
export const BEACON_WINDOW_MS = 10 * 60_000;

/** How often the counts gathered in memory are added to the database: a burst of reports is a handful of upserts. */
export const BEACON_FLUSH_MS = 2000;

export interface BeaconLimits {
  /** Reports counted per network and window; `Infinity` lifts the cap (the bench, never a server). */
  perNetwork: number;
  windowMs: number;
  /** Networks remembered at once (each a few dozen bytes); past it, reports from new networks are not counted until windows end. */
  networks: number;
  /** Nonces remembered, and for how long: a report sent twice (hidden, then pagehide) within this counts once. */
  nonces: number;
  nonceMs: number;
  flushMs: number;
  /** Distinct (hour, section, release, key) rows held while the database is away; counts past it are dropped. */
  pendingRows: number;
  /** How long the body may take once its headers are in. */
  bodyTimeMs: number;
}

/**
 * PORTICO_BEACON_REPORTS_PER_NETWORK: the per-network bound, for a site whose
 * visitors share few addresses (an office behind one NAT; a test that makes
 * every visit from one machine). Undefined when unset.
 */
export function reportsPerNetworkFrom(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return wholeNumberFrom(env, 'PORTICO_BEACON_REPORTS_PER_NETWORK', 1, 100_000);
}

export const DEFAULT_BEACON_LIMITS: Readonly<BeaconLimits> = {
  perNetwork: BEACON_REPORTS_PER_NETWORK,
  windowMs: BEACON_WINDOW_MS,
  networks: 100_000,
  nonces: 100_000,
  nonceMs: 10 * 60_000,
  flushMs: BEACON_FLUSH_MS,
  pendingRows: 50_000,
  bodyTimeMs: BODY_TIME_MS,
};

/** The part of the health store the endpoint writes to. */
export type HealthRecorder = Pick<HealthStore, 'record'>;

export interface BeaconEndpointOptions {
  /** Where the counts go; a function while the store may not be open yet (undefined until it is). */
  health: HealthRecorder | (() => HealthRecorder | undefined);
  /** The database's shared secret (ReleaseStore.previewSecret), undefined until the store is open. */
  secret: () => Promise<Buffer | undefined>;
  /** The page's own origin for this request (visitorOf), which `Origin` must be. */
  originOf: (req: IncomingMessage) => string | undefined;
  /** The network the request came from (clientNetwork of the visitor's address): the per-source cap's key, kept in memory only. */
  networkOf: (req: IncomingMessage) => string;
  log: (line: string) => void;
  limits?: Partial<BeaconLimits>;
}

export interface BeaconEndpoint {
  /** Answers `POST /api/beacon`. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Adds what was gathered to the database now. */
  flush(): Promise<void>;
  /** Stops the timer and flushes what is left (once; counts the database refuses then are lost, and logged). */
  close(): Promise<void>;
  /** How many networks and nonces are held in memory now (each for its window at most, traffic or not). */
  remembered(): { networks: number; nonces: number };
}

type Body = { ok: true; text: string } | { ok: false; status: 408 | 413 | 400; error: string };

/**
 * Reads at most `cap` bytes: a body declared larger is refused before a
 * byte is read, one that turns out larger once it passes the cap. What is
 * past the cap is never kept.
 */
function readCapped(req: IncomingMessage, cap: number, timeMs: number): Promise<Body> {
  const tooLarge = { ok: false, status: 413, error: `a report is at most ${cap} bytes` } as const;
  if (Number(req.headers['content-length']) > cap) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (body: Body) => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      resolve(body);
    };
    const timer = setTimeout(() => settle({ ok: false, status: 408, error: `the report did not arrive within ${timeMs / 1000} s` }), timeMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) settle(tooLarge);
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', () => settle({ ok: false, status: 400, error: 'the report could not be read' }));
    req.once('end', () => {
      if (size > cap) return;
      try {
        settle({ ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) });
      } catch {
        settle({ ok: false, status: 400, error: 'the report is not valid UTF-8' });
      }
    });
  });
}

/** What sendBeacon sends with a string (text/plain;charset=UTF-8), or a Blob typed application/json; UTF-8 only. */
function acceptedType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'text/plain' && type !== 'application/json') return false;
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8');
}

/** Entries of a Map kept in insertion order with one lifetime each: the oldest are first, so expiry sweeps from the front. */
function sweep<V extends { until: number }>(map: Map<string, V>, now: number): void {
  for (const [key, value] of map) {
    if (value.until > now) return;
    map.delete(key);
  }
}

/**
 * `POST /api/beacon`: the page's one report per visit (contract/beacon).
 * Answers 204 for a report taken, whether or not it counted: a forged or
 * expired token, a release the token does not name, a nonce seen already or
 * a source over its cap count nothing and are told nothing. The counts
 * gather in memory per (hour, section, release, key) and go to the database
 * every couple of seconds; the answer never waits for the database.
 *
 * Nothing about the visitor is written anywhere: the network the request
 * came from is a key of an in-memory map for minutes, and the nonce another.
 */
export function beaconEndpoint(options: BeaconEndpointOptions): BeaconEndpoint {
  const limits: BeaconLimits = { ...DEFAULT_BEACON_LIMITS, ...options.limits };
  const healthOf = typeof options.health === 'function' ? options.health : () => options.health as HealthRecorder;
  const headers = dataHeaders();
  const networks = new Map<string, { until: number; count: number }>();
  const nonces = new Map<string, { until: number }>();
  let pending = new Map<string, HealthCount>();
  let secret: Buffer | undefined;
  let overCap = 0;
  let dropped = 0;
  let failing = false;

  const answer = (res: ServerResponse, status: number, error?: string, extra: Record<string, string> = {}) => {
    const text = error === undefined ? '' : JSON.stringify({ error });
    res.writeHead(status, {
      ...headers,
      'Cache-Control': 'no-store',
      ...(error === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) }),
      ...extra,
    });
    res.end(text);
  };

  /** Whether one more report from `network` may count now; counts it if so. */
  const admit = (network: string, now: number): boolean => {
    sweep(networks, now);
    const known = networks.get(network);
    if (known) {
      if (known.count >= limits.perNetwork) {
        overCap++;
        return false;
      }
      known.count++;
      return true;
    }
    // Full of live windows: new sources wait, rather than an attacker with many networks evicting the ones being capped.
    if (networks.size >= limits.networks) {
      overCap++;
      return false;
    }
    networks.set(network, { until: now + limits.windowMs, count: 1 });
    return true;
  };

  const add = (row: HealthCount) => {
    const id = `${row.hour.getTime()}\n${row.section}\n${row.releaseId}\n${row.key}`;
    const known = pending.get(id);
    if (known) known.count += row.count;
    else if (pending.size < limits.pendingRows) pending.set(id, { ...row });
    else dropped += row.count;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return answer(res, 405, 'only POST is accepted here', { Allow: 'POST' });
    // sendBeacon sends Origin with every POST; a request without it is not from a page.
    const own = options.originOf(req);
    if (!own || req.headers.origin !== own) return answer(res, 403, "reports are accepted from this site's own pages only");
    if (!acceptedType(req.headers['content-type'])) return answer(res, 415, 'a report is text/plain or application/json, in UTF-8');
    const health = healthOf();
    secret ??= health ? await options.secret().catch(() => undefined) : undefined;
    // Without the store (a database server still being waited for) nothing can be verified or kept: say so, as /api/contact does.
    if (!health || !secret) return answer(res, 503, 'reports cannot be taken just now', { 'Retry-After': '5' });

    const body = await readCapped(req, BEACON_MAX_BYTES, limits.bodyTimeMs);
    if (!body.ok) return answer(res, body.status, body.error, body.status === 400 ? {} : { Connection: 'close' });
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return answer(res, 400, 'the report is not valid JSON');
    }
    const parsed = parseVisitReport(json);
    if (!parsed.ok) return answer(res, 400, parsed.error);
    const { report } = parsed;

    const now = Date.now();
    const grant = verifyHealthToken(secret, report.token, new Date(now));
    if ('problem' in grant) return answer(res, 204);
    const counted = (Object.keys(report.sections) as SectionId[]).filter((section) => grant.releases[section] === report.sections[section]!.release);
    if (counted.length === 0) return answer(res, 204);
    sweep(nonces, now);
    if (nonces.has(report.nonce)) return answer(res, 204);
    if (!admit(options.networkOf(req), now)) return answer(res, 204);
    if (nonces.size >= limits.nonces) nonces.delete(nonces.keys().next().value!);
    nonces.set(report.nonce, { until: now + limits.nonceMs });

    const hour = hourOf(now);
    for (const count of reportCounts(report, counted)) add({ hour, ...count, count: 1 });
    answer(res, 204);
  };

  let flushing: Promise<void> | undefined;
  const flushOnce = async () => {
    if (overCap > 0) {
      options.log(`beacon: ${overCap} report(s) over the per-network cap (${limits.perNetwork} per ${limits.windowMs / 60_000} min) were not counted`);
      overCap = 0;
    }
    const store = healthOf();
    if (!store || pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    try {
      await store.record(batch);
      if (failing) options.log('beacon: the health store takes counts again');
      failing = false;
    } catch (error) {
      if (!failing) options.log(`beacon: the health store is unavailable, keeping the counts to try again: ${(error as Error).message}`);
      failing = true;
      for (const row of batch) add(row);
    }
    if (dropped > 0) {
      options.log(`beacon: ${dropped} count(s) dropped: more than ${limits.pendingRows} rows waited for the database`);
      dropped = 0;
    }
  };
  const flush = (): Promise<void> => {
    flushing ??= flushOnce().finally(() => (flushing = undefined));
    return flushing;
  };
  const timer = setInterval(() => {
    // Forgotten when their window ends even with no report coming to sweep them.
    sweep(networks, Date.now());
    sweep(nonces, Date.now());
    void flush();
  }, limits.flushMs);
  timer.unref();

  return {
    handle,
    async flush() {
      await flushing;
      await flush();
    },
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
      const left = [...pending.values()].reduce((sum, row) => sum + row.count, 0);
      if (left > 0) options.log(`beacon: ${left} count(s) could not be stored before stopping`);
      networks.clear();
      nonces.clear();
    },
    remembered: () => ({ networks: networks.size, nonces: nonces.size }),
  };
}
