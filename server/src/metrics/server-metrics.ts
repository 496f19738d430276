import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { DatabaseStats } from '@portico/platform/database';
import type { AuditAction, ServedState } from '@portico/releases';
import { REPORT_OUTCOMES, type ReportOutcome } from '../beacon/report-outcomes';
import type { RenderWorkerState } from '../ssr/server-rendering';
import { RequestHistogram } from './request-histogram';

/** An outbox as its store reads it now. */
interface OutboxNow {
  waiting: number;
  oldestSeconds: number;
}

/**
 * Where each metric's value lives, each read at a scrape (never per
 * request). Functions, since the parts start at different times (a database
 * server is waited for after the ports open): undefined until there is one.
 */
export interface MetricSources {
  rendering?: () => RenderWorkerState | undefined;
  served?: () => ServedState | undefined;
  reports?: () => Readonly<Record<ReportOutcome, number>> | undefined;
  /** The contact messages: stored by this server, the delivery outbox. */
  messages?: () => { storedHere(): number; outbox(): Promise<OutboxNow & { failed: number }> } | undefined;
  /** The alerts' outbox. */
  alerts?: () => { outbox(): Promise<OutboxNow & { givenUp: number }> } | undefined;
  /** The audit log's counts of release actions, over every server. */
  audit?: () => { countsOf(actions: readonly AuditAction[]): Promise<{ section: string; action: AuditAction; count: number }[]> } | undefined;
  database?: () => { kind: 'embedded' | 'server'; stats(): DatabaseStats } | undefined;
}

/** The audit actions a rule watches: what changed a section's release, by hand or by the judge. */
const COUNTED_ACTIONS: readonly AuditAction[] = ['activate', 'rollback', 'auto-rollback', 'promote', 'abort', 'broken', 'set-aside'];

/** A counter whose total is kept elsewhere (a plain number where the event happens): set to it at each scrape. */
function setTotal<L extends string>(counter: Counter<L>, labels: Partial<Record<L, string>>, total: number): void {
  counter.inc(labels, total);
}

/**
 * One server's metrics, in a registry of its own (never prom-client's
 * global one: two servers in one process, as the tests run them, keep
 * theirs apart). Requests are observed as they are answered (observeRequest,
 * one histogram observation); everything else is read from where it lives
 * when Prometheus scrapes (each metric's collect). Every label is bounded:
 * routes are Fastify's route patterns, statuses the codes the server sends,
 * sections the catalogue's, outcomes and states fixed lists.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};
  private readonly requests: RequestHistogram;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new RequestHistogram(registers);
    const read = this.read.bind(this);
    this.renderingMetrics(registers, read);
    this.releaseMetrics(registers, read);
    this.messageMetrics(registers, read);
    this.databaseMetrics(registers, read);
  }

  /** Where the values are read from at a scrape; later parts add theirs as they start. */
  watch(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  /** One request answered: `route` is its route pattern (undefined: none matched). */
  observeRequest(app: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.record(app, route, status, seconds);
  }

  /** Prometheus' text format, and its content type. */
  async text(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private read<K extends keyof MetricSources>(key: K): ReturnType<NonNullable<MetricSources[K]>> | undefined {
    return this.sources[key]?.() as ReturnType<NonNullable<MetricSources[K]>> | undefined;
  }

  private renderingMetrics(registers: Registry[], read: ServerMetrics['read']): void {
    new Counter({
      name: 'portico_page_cache_lookups_total',
      help: 'Server-rendered pages answered from the page cache (hit) or composed for the request (miss)',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        const counts = read('rendering')?.counts;
        setTotal(this, { result: 'hit' }, counts?.cacheHits ?? 0);
        setTotal(this, { result: 'miss' }, counts?.cacheMisses ?? 0);
      },
    });
    new Counter({
      name: 'portico_ssr_renders_dropped_total',
      help: 'Server renders dropped past the page budget: a section left to the browser on a page, or a whole page sent client-rendered',
      labelNames: ['what'],
      registers,
      collect() {
        this.reset();
        const counts = read('rendering')?.counts;
        setTotal(this, { what: 'section' }, counts?.sectionsPastBudget ?? 0);
        setTotal(this, { what: 'page' }, counts?.pagesPastBudget ?? 0);
      },
    });
    new Gauge({
      name: 'portico_render_workers',
      help: 'Render workers by kind (shell, section) and state: live, starting (none live yet, or restarting after a death), set-aside (a build whose workers kept dying)',
      labelNames: ['kind', 'state'],
      registers,
      collect() {
        this.reset();
        const state = read('rendering');
        if (!state) return;
        this.set({ kind: 'shell', state: state.pid === undefined ? 'starting' : 'live' }, 1);
        const tally = { live: 0, starting: 0, 'set-aside': 0 };
        for (const section of Object.values(state.sections)) {
          if (!section) continue;
          tally[section.quarantined ? 'set-aside' : section.pid === undefined ? 'starting' : 'live'] += 1;
        }
        for (const [name, count] of Object.entries(tally)) this.set({ kind: 'section', state: name }, count);
      },
    });
    new Counter({
      name: 'portico_render_worker_restarts_total',
      help: 'Render workers that died or could not start, by kind: each is restarted after a growing wait, or its build set aside after repeated deaths',
      labelNames: ['kind'],
      registers,
      collect() {
        this.reset();
        const deaths = read('rendering')?.counts.workerDeaths;
        setTotal(this, { kind: 'shell' }, deaths?.shell ?? 0);
        setTotal(this, { kind: 'section' }, deaths?.section ?? 0);
      },
    });
  }

  private releaseMetrics(registers: Registry[], read: ServerMetrics['read']): void {
    new Gauge({
      name: 'portico_section_release_info',
      help: "The release each section serves (state active) and its canary's candidate (state candidate), always 1",
      labelNames: ['section', 'release', 'state'],
      registers,
      collect() {
        this.reset();
        const served = read('served');
        if (!served) return;
        for (const [section, release] of Object.entries(served.active)) if (release) this.set({ section, release: release.id, state: 'active' }, 1);
        for (const [section, canary] of Object.entries(served.canaries)) if (canary) this.set({ section, release: canary.release.id, state: 'candidate' }, 1);
      },
    });
    new Gauge({
      name: 'portico_section_canary_percent',
      help: "The share of visits a section's running canary serves its candidate (absent: no canary)",
      labelNames: ['section'],
      registers,
      collect() {
        this.reset();
        for (const [section, canary] of Object.entries(read('served')?.canaries ?? {})) if (canary) this.set({ section }, canary.percent);
      },
    });
    new Counter({
      name: 'portico_release_actions_total',
      help: 'Release actions in the audit log (every server), by section and action: activate, rollback, auto-rollback (the canary judge), promote, abort, broken, set-aside',
      labelNames: ['section', 'action'],
      registers,
      async collect() {
        const audit = read('audit');
        if (!audit) return;
        const counts = await audit.countsOf(COUNTED_ACTIONS).catch(() => undefined);
        // The database away: the last totals stay, rather than a counter falling to 0.
        if (!counts) return;
        this.reset();
        for (const { section, action, count } of counts) setTotal(this, { section, action }, count);
      },
    });
    new Counter({
      name: 'portico_visit_reports_total',
      help: "The page's visit reports (POST /api/beacon) received by this server, by outcome: accepted, or the reason it counted nothing",
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        const outcomes = read('reports');
        for (const outcome of REPORT_OUTCOMES) setTotal(this, { outcome }, outcomes?.[outcome] ?? 0);
      },
    });
  }

  private messageMetrics(registers: Registry[], read: ServerMetrics['read']): void {
    new Counter({
      name: 'portico_contact_messages_stored_total',
      help: 'Contact messages this server stored since it started (a repeat of one stored is not counted)',
      registers,
      collect() {
        this.reset();
        setTotal(this, {}, read('messages')?.storedHere() ?? 0);
      },
    });
    // Both outboxes are read at once, once per scrape, by the first of their gauges collected.
    const outboxes = new OnceEachScrape(async () => {
      const [messages, alerts] = await Promise.all([read('messages')?.outbox(), read('alerts')?.outbox()]);
      return { messages, alerts };
    });
    new Gauge({
      name: 'portico_contact_outbox_messages',
      help: 'Contact messages not delivered, by state: waiting (retried until delivered) or failed (given up)',
      labelNames: ['state'],
      registers,
      async collect() {
        const messages = (await outboxes.get()).value?.messages;
        if (!messages) return;
        this.set({ state: 'waiting' }, messages.waiting);
        this.set({ state: 'failed' }, messages.failed);
      },
    });
    new Gauge({
      name: 'portico_contact_outbox_oldest_seconds',
      help: 'How long the oldest contact message waiting for delivery has waited (0: none waits)',
      registers,
      async collect() {
        const messages = (await outboxes.get()).value?.messages;
        if (messages) this.set(messages.oldestSeconds);
      },
    });
    new Gauge({
      name: 'portico_alert_outbox_alerts',
      help: "Operators' alerts not sent, by state: waiting (retried) or given-up",
      labelNames: ['state'],
      registers,
      async collect() {
        const alerts = (await outboxes.get()).value?.alerts;
        if (!alerts) return;
        this.set({ state: 'waiting' }, alerts.waiting);
        this.set({ state: 'given-up' }, alerts.givenUp);
      },
    });
    new Gauge({
      name: 'portico_alert_outbox_oldest_seconds',
      help: 'How long the oldest alert waiting to be sent has waited (0: none waits)',
      registers,
      async collect() {
        const alerts = (await outboxes.get()).value?.alerts;
        if (alerts) this.set(alerts.oldestSeconds);
      },
    });
    new Gauge({
      name: 'portico_database_up',
      help: "1 when this scrape's reads of the database (the outboxes) answered, else 0 (down, or not reached yet at start)",
      registers,
      async collect() {
        const read = await outboxes.get();
        // No store yet (a database server still awaited) counts as down.
        this.set(read.failed || !read.value?.messages ? 0 : 1);
      },
    });
  }

  private databaseMetrics(registers: Registry[], read: ServerMetrics['read']): void {
    new Gauge({
      name: 'portico_database_info',
      help: 'The database in use, always 1: kind embedded (PGlite, in this process: no pool, LISTEN in process) or server (PostgreSQL)',
      labelNames: ['kind'],
      registers,
      collect() {
        this.reset();
        const database = read('database');
        if (database) this.set({ kind: database.kind }, 1);
      },
    });
    new Gauge({
      name: 'portico_database_pool_connections',
      help: "A PostgreSQL server's connection pool: connections open (total) and idle; absent with the embedded database",
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const pool = read('database')?.stats().pool;
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
      },
    });
    new Gauge({
      name: 'portico_database_pool_waiting',
      help: "Queries waiting for a connection of a PostgreSQL server's pool; 0 with the embedded database",
      registers,
      collect() {
        this.reset();
        const pool = read('database')?.stats().pool;
        if (pool) this.set(pool.waiting);
      },
    });
    new Gauge({
      name: 'portico_database_listen_connections',
      help: 'LISTEN connections alive (the release watch, the console events): 0 while the database is away, each listened again once it answers',
      registers,
      collect() {
        const database = read('database');
        this.set(database ? database.stats().listening : 0);
      },
    });
  }
}

/**
 * A read shared by the metrics collected in one scrape: the first asks, the
 * rest within the same moment get its answer; a failure is remembered as
 * `failed` for that scrape, not thrown (a scrape still answers).
 */
class OnceEachScrape<T> {
  private pending: Promise<{ value?: T; failed: boolean }> | undefined;

  constructor(private readonly load: () => Promise<T>) {}

  get(): Promise<{ value?: T; failed: boolean }> {
    if (this.pending) return this.pending;
    const pending = this.load().then(
      (value) => ({ value, failed: false }),
      () => ({ failed: true }),
    );
    this.pending = pending;
    // Forgotten once this scrape's collects have all run.
    void pending.then(() => setImmediate(() => (this.pending = undefined)));
    return pending;
  }
}
