import type { Logger } from '@portico/platform/logging';

/** What a supervisor's worker is: a process it can start, kill and watch end. */
export interface Supervised {
  readonly alive: boolean;
  readonly ready: Promise<boolean>;
  readonly exited: Promise<string>;
  readonly busy: boolean;
  readonly pid: number | undefined;
  kill(reason: string): void;
}

/** What the workers should be running now, and how a new worker is made ready for it. */
export interface Plan<W> {
  /** What the worker runs (a section's builds, by their hashes): a new key is a new generation. */
  key: string;
  /** Loads and warms a started worker with the current config; false when it cannot serve. */
  prepare: (worker: W) => Promise<boolean>;
}

export interface SupervisorOptions<W> {
  /** For the log: `the contact section's worker`. */
  name: string;
  /** Starts a worker, or undefined when none can be started. */
  start: () => W | undefined;
  log: Logger;
  /** Another worker answers from now on (undefined: none, until one is live again). */
  onLive?: (worker: W | undefined) => void;
  /** A worker of the current plan died (or could not start): it is replaced after a wait, or its plan set aside. */
  onDeath?: () => void;
  /** The plan `key` was set aside after its workers' repeated deaths; `reason` is the last one's. */
  onSetAside?: (key: string, reason: string) => void;
  /** Waits before each restart after a death, growing, the last one repeated. */
  backoffMs?: readonly number[];
  /** This many deaths in a row of one plan's workers, and that plan is not started again until the plan changes. */
  quarantineAfter?: number;
  /** A worker live this long before it died had been working: its death starts the count afresh. */
  stableMs?: number;
}

interface Generation<W> {
  key: string;
  worker: W;
  number: number;
  liveSince?: number;
  /** Ended by the supervisor because its plan went: its exit is not a death of the plan's workers. */
  dismissed?: boolean;
}

const DEFAULT_BACKOFF_MS = [500, 2000, 8000, 30_000];
const DEFAULT_QUARANTINE_AFTER = 3;
const DEFAULT_STABLE_MS = 60_000;
/** A replaced worker finishes what it was asked for this long, then is killed. */
const RETIRE_GRACE_MS = 2000;

/**
 * Keeps one live worker for the current plan, whatever happens: a worker that
 * dies at any moment (starting, warming, live) is replaced after a growing
 * wait; a plan whose workers keep dying is set aside until the plan changes
 * (a new build), and the log says so; a new plan starts a new generation,
 * warmed before it is switched in, and the old one is ended. Every event
 * leads to `reconcile()`, which compares what is with what should be, so no
 * order of events can leave it waiting for something that will not come.
 */
export class Supervisor<W extends Supervised> {
  private wanted: Plan<W> | undefined;
  private live: Generation<W> | undefined;
  private starting: Generation<W> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly quarantined = new Set<string>();
  private generations = 0;
  /** Why the next worker is started; the log says it for every start after the first. */
  private cause = 'the first start';
  private closed = false;
  /** Every worker started and not yet exited (live, starting, retiring, or killed and not yet gone): what close() waits for. */
  private readonly running = new Set<W>();
  private readonly waiters = new Set<() => void>();
  /** Waiting for a settled supervisor or a death, whichever is first (whenSettledOrFailed). */
  private readonly failureWaiters = new Set<() => void>();

  constructor(private readonly options: SupervisorOptions<W>) {}

  /** The live worker for the current plan, if any. */
  get worker(): W | undefined {
    return this.live?.worker.alive ? this.live.worker : undefined;
  }

  get generation(): number | undefined {
    return this.worker ? this.live!.number : undefined;
  }

  /** The key of what the live worker runs. */
  get liveKey(): string | undefined {
    return this.worker ? this.live!.key : undefined;
  }

  /** The key of what should run now. */
  get planKey(): string | undefined {
    return this.wanted?.key;
  }

  /** The current plan is set aside after repeated deaths. */
  get quarantinedNow(): boolean {
    return this.wanted !== undefined && this.quarantined.has(this.wanted.key);
  }

  /** Whether there is nothing to wait for: a live worker for the plan, no plan, or a plan set aside. */
  get settled(): boolean {
    return this.closed || this.wanted === undefined || this.quarantinedNow || (this.live?.key === this.wanted.key && this.worker !== undefined);
  }

  /** Resolves once settled. */
  whenSettled(): Promise<void> {
    if (this.settled) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  /**
   * Resolves once settled, or once a worker for the plan has died (what a
   * start-up waits for: a restart after a death, with its backoff, is not).
   */
  whenSettledOrFailed(): Promise<void> {
    if (this.settled) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        this.failureWaiters.delete(done);
        resolve();
      };
      this.waiters.add(done);
      this.failureWaiters.add(done);
    });
  }

  /** What should run from now on (undefined: nothing). The same key again changes nothing. */
  want(plan: Plan<W> | undefined): void {
    if (plan?.key !== this.wanted?.key) {
      this.failures = 0;
      clearTimeout(this.retry);
      this.retry = undefined;
      if (plan && this.wanted) this.cause = 'its plan changed (other builds to run)';
    }
    this.wanted = plan;
    this.reconcile();
  }

  private notify(): void {
    if (!this.settled) return;
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }

  private reconcile(): void {
    if (this.closed) return;
    const plan = this.wanted;
    if (this.starting && this.starting.key !== plan?.key) {
      // Started for a plan that is gone (replaced, or withdrawn): it never goes live.
      this.starting.dismissed = true;
      this.starting.worker.kill('replaced by a newer plan before it was live');
      this.starting = undefined;
    }
    if (this.live && (!plan || this.live.key !== plan.key) && !this.starting && (!plan || this.quarantined.has(plan.key))) {
      // Nothing will replace it: a plan gone, or one set aside, must not keep running old code.
      this.retire(this.live);
      this.switchTo(undefined);
    }
    if (!plan) return this.notify();
    if (this.live?.key === plan.key && this.live.worker.alive) return this.notify();
    // Started for this plan: it goes live or dies.
    if (this.starting) return;
    if (this.quarantined.has(plan.key) || this.retry) return this.notify();
    void this.startGeneration(plan);
  }

  private async startGeneration(plan: Plan<W>): Promise<void> {
    let worker: W | undefined;
    try {
      worker = this.options.start();
    } catch (error) {
      // The system refused a process (spawn throws on ENOMEM, E2BIG, EPERM…): a worker that died at once, waited for and tried again.
      return this.failed(plan.key, `could not be started: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!worker) return;
    this.running.add(worker);
    this.generations += 1;
    // Every restart says why: a test (and an operator) can tell a new plan from a death.
    if (this.generations > 1) this.options.log.info(`${this.options.name} ${this.generations} started: ${this.cause}`);
    const generation: Generation<W> = { key: plan.key, worker, number: this.generations };
    this.starting = generation;
    void worker.exited.then((reason) => this.onExit(generation, reason));
    let ok = false;
    try {
      ok = (await worker.ready) && (await plan.prepare(worker));
    } catch {
      ok = false;
    }
    if (this.starting !== generation) {
      // Replaced, closed, or dead meanwhile (onExit has counted the death).
      worker.kill('no longer wanted');
      return;
    }
    this.starting = undefined;
    if (!ok || !worker.alive) {
      // onExit counts it once it has ended.
      worker.kill('could not be made ready');
      return;
    }
    const old = this.live;
    generation.liveSince = performance.now();
    this.switchTo(generation);
    if (old) this.retire(old);
    this.reconcile();
  }

  private onExit(generation: Generation<W>, reason: string): void {
    this.running.delete(generation.worker);
    if (this.closed) return;
    const wasLive = this.live === generation;
    const wasStarting =
      this.starting === generation || (!wasLive && generation.liveSince === undefined && !generation.dismissed && generation.key === this.wanted?.key);
    if (wasLive) this.switchTo(undefined);
    if (this.starting === generation) this.starting = undefined;
    if (!wasLive && !wasStarting) return;
    if (wasLive && performance.now() - generation.liveSince! > (this.options.stableMs ?? DEFAULT_STABLE_MS)) this.failures = 0;
    this.failed(generation.key, reason);
  }

  private failed(key: string, reason: string): void {
    if (key !== this.wanted?.key) return this.reconcile();
    for (const resolve of [...this.failureWaiters]) resolve();
    this.options.onDeath?.();
    this.failures += 1;
    this.cause = `the one before ${reason}`;
    const limit = this.options.quarantineAfter ?? DEFAULT_QUARANTINE_AFTER;
    if (this.failures >= limit) {
      this.quarantined.add(key);
      this.options.log.warn(`${this.options.name} ${reason}, ${this.failures} times in a row: this build is rendered in the browser only until it changes`);
      this.options.onSetAside?.(key, `its worker ${reason}, ${this.failures} times in a row`);
      return this.reconcile();
    }
    const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const wait = backoff[Math.min(this.failures - 1, backoff.length - 1)]!;
    this.options.log.warn(`${this.options.name} ${reason}; the browser renders it meanwhile, another worker starts in ${wait / 1000} s`);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.reconcile();
    }, wait);
    this.retry.unref();
  }

  private switchTo(generation: Generation<W> | undefined): void {
    this.live = generation;
    this.options.onLive?.(generation?.worker);
  }

  /** Lets a replaced worker finish what it was asked, then ends it. */
  private retire(generation: Generation<W>): void {
    const { worker } = generation;
    const started = performance.now();
    const check = setInterval(() => {
      if (!worker.alive || !worker.busy || performance.now() - started > RETIRE_GRACE_MS) {
        clearInterval(check);
        worker.kill('replaced');
      }
    }, 50);
    check.unref();
  }

  /** Ends every worker (live, starting, retiring) and waits until each has exited. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const workers = [...this.running];
    this.live = undefined;
    this.starting = undefined;
    this.options.onLive?.(undefined);
    this.notify();
    await Promise.all(
      workers.map((worker) => {
        worker.kill('the server is stopping');
        return worker.exited;
      }),
    );
  }
}
