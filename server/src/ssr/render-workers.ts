import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FromWorker, PageRequest, SectionOutcomes, ToWorker } from '@portico/render/protocol';

export interface RenderedPage {
  html: string;
  sections: SectionOutcomes;
  renderMs: number;
  /** The worker generation that rendered it: part of the cache key. */
  generation: number;
}

export interface RenderWorkersOptions {
  /** The built worker, host/dist-node/render-worker.js. */
  workerFile: string;
  /** The worker's V8 heap limit, in MB. */
  heapMb: number;
  log: (line: string) => void;
  /** Another generation answers pages from now on (undefined: none, until a new one is warm). */
  onLive?: (generation: number | undefined) => void;
}

/** A request the worker has not answered for this long means it is stuck (a section looping): it is replaced. */
const STUCK_MS = 5000;
/** How long a new worker may take to start and to warm before it is switched in anyway. */
const START_MS = 10_000;
const WARM_MS = 10_000;
/** An old worker gets this long to finish its answers, then SIGTERM, then SIGKILL. */
const RETIRE_GRACE_MS = 2000;
const KILL_AFTER_MS = 2000;
/** A worker that keeps dying is restarted no faster than this. */
const RESTART_BACKOFF_MS = [250, 1000, 5000, 15_000];

/** A message before it is numbered. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending {
  resolve: (message: FromWorker | undefined) => void;
  sentAt: number;
}

/** One forked worker: one generation. */
class Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<boolean>;
  readonly cwd: string;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  alive = true;

  constructor(
    readonly generation: number,
    options: RenderWorkersOptions,
    onExit: (worker: Worker, reason: string) => void,
  ) {
    // An empty folder of its own: nothing the worker could read by a relative path.
    this.cwd = mkdtempSync(path.join(tmpdir(), 'portico-render-'));
    this.child = fork(options.workerFile, [], {
      cwd: this.cwd,
      // No secrets of the front server's environment reach section code.
      env: { NODE_ENV: 'production' },
      // Not the front server's own flags (tsx's loader): only the heap limit.
      execArgv: [`--max-old-space-size=${options.heapMb}`],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    this.ready = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), START_MS);
      this.child.once('message', (message: FromWorker) => {
        clearTimeout(timer);
        resolve(message.type === 'ready');
      });
      this.child.once('exit', () => resolve(false));
    });
    this.child.on('message', (message: FromWorker) => {
      if (message.type === 'ready') return;
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      pending?.resolve(message);
    });
    this.child.on('error', (error) => options.log(`render worker ${generation}: ${error.message}`));
    this.child.once('exit', (code, signal) => {
      this.alive = false;
      for (const pending of this.pending.values()) pending.resolve(undefined);
      this.pending.clear();
      rmSync(this.cwd, { recursive: true, force: true });
      onExit(this, signal ? `ended by ${signal}` : `exited with code ${code}`);
    });
  }

  /** The answer, or undefined when the worker is gone or did not answer within `timeoutMs`. */
  ask(message: WithoutId<ToWorker>, timeoutMs: number): Promise<FromWorker | undefined> {
    if (!this.alive || !this.child.connected) return Promise.resolve(undefined);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      this.pending.set(id, {
        sentAt: performance.now(),
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
      });
      this.child.send({ ...message, id } as ToWorker, (error) => {
        if (error) this.pending.get(id)?.resolve(undefined);
      });
    });
  }

  /** Whether a request has waited so long the worker must be stuck. */
  stuck(now: number): boolean {
    for (const pending of this.pending.values()) if (now - pending.sentAt > STUCK_MS) return true;
    return false;
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  end(): void {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    setTimeout(() => {
      if (this.alive) this.child.kill('SIGKILL');
    }, KILL_AFTER_MS).unref();
  }
}

/**
 * The render worker and its replacements. One live worker answers pages; a
 * renewal starts the next generation, warms it, switches to it and ends the
 * old one, so no section code loaded for older manifests stays in memory. A
 * worker that dies is replaced (with backoff), one that hangs is killed and
 * replaced; meanwhile pages are answered without it (the client-rendered page).
 */
export class RenderWorkers {
  private current: Worker | undefined;
  private generation = 0;
  private renewing: Promise<void> | undefined;
  private renewAgain = false;
  private failures = 0;
  private closed = false;
  /** Every worker not yet exited, the starting and retiring ones too, so close() ends them all. */
  private readonly running = new Set<Worker>();
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly options: RenderWorkersOptions,
    /** The pages a new worker renders before it is switched in (each language, the current config). */
    private readonly warmPages: () => Promise<PageRequest[]>,
  ) {
    this.watchdog = setInterval(() => {
      const worker = this.current;
      if (worker?.alive && worker.stuck(performance.now())) {
        options.log(`render worker ${worker.generation} did not answer for ${STUCK_MS / 1000} s; replacing it`);
        worker.child.kill('SIGKILL');
      }
    }, 1000);
    this.watchdog.unref();
  }

  get liveGeneration(): number | undefined {
    return this.current?.alive ? this.current.generation : undefined;
  }

  /** The live worker's process id, for measurements and tests. */
  get pid(): number | undefined {
    return this.current?.alive ? this.current.child.pid : undefined;
  }

  /** The page, or undefined when no worker is live or it did not answer within `budgetMs`. */
  async render(page: PageRequest, budgetMs: number): Promise<RenderedPage | undefined> {
    const worker = this.current;
    if (!worker?.alive) return undefined;
    const answer = await worker.ask({ type: 'render', page }, budgetMs);
    if (answer?.type === 'failed') this.options.log(`render worker ${worker.generation}: ${answer.reason}`);
    if (answer?.type !== 'page') return undefined;
    return { html: answer.html, sections: answer.sections, renderMs: answer.renderMs, generation: worker.generation };
  }

  /**
   * Starts a new generation, warms it and switches to it. Renewals asked for
   * while one runs are folded into one more after it.
   */
  renew(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.renewing) {
      this.renewAgain = true;
      return this.renewing;
    }
    this.renewing = this.startGeneration().finally(() => {
      this.renewing = undefined;
      if (this.renewAgain && !this.closed) {
        this.renewAgain = false;
        void this.renew();
      }
    });
    return this.renewing;
  }

  private async startGeneration(): Promise<void> {
    this.generation += 1;
    const next = new Worker(this.generation, this.options, (worker, reason) => this.onExit(worker, reason));
    this.running.add(next);
    if (!(await next.ready)) {
      if (this.closed) return;
      this.options.log(`render worker ${next.generation} did not start; pages are rendered in the browser`);
      next.end();
      if (!this.current) this.restartLater();
      return;
    }
    const pages = await this.warmPages();
    const warmed = await next.ask({ type: 'warm', pages }, WARM_MS);
    if (this.closed || !next.alive) {
      next.end();
      return;
    }
    if (!warmed) this.options.log(`render worker ${next.generation} did not warm within ${WARM_MS / 1000} s; switched in anyway`);
    const old = this.current;
    this.switchTo(next);
    this.failures = 0;
    if (old) this.retire(old);
  }

  private switchTo(worker: Worker | undefined): void {
    this.current = worker;
    this.options.onLive?.(worker?.generation);
  }

  /** Lets the old worker answer what it was asked, then ends it. */
  private retire(worker: Worker): void {
    const started = performance.now();
    const check = setInterval(() => {
      if (!worker.busy || performance.now() - started > RETIRE_GRACE_MS) {
        clearInterval(check);
        worker.end();
      }
    }, 50);
  }

  private onExit(worker: Worker, reason: string): void {
    this.running.delete(worker);
    if (this.closed || worker !== this.current) return;
    this.options.log(`render worker ${worker.generation} ${reason}; pages are rendered in the browser until a new one is warm`);
    this.switchTo(undefined);
    this.restartLater();
  }

  private restartLater(): void {
    const wait = RESTART_BACKOFF_MS[Math.min(this.failures, RESTART_BACKOFF_MS.length - 1)]!;
    this.failures += 1;
    setTimeout(() => void this.renew(), wait).unref();
  }

  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    this.switchTo(undefined);
    const ending = [...this.running].filter((worker) => worker.alive);
    return Promise.all(
      ending.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.child.once('exit', () => resolve());
            worker.end();
          }),
      ),
    ).then(() => undefined);
  }
}
