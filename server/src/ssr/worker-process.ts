import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '@portico/platform/logging';
import { readdirSync, readFileSync } from 'node:fs';
import type { Duplex, Readable } from 'node:stream';
import { readLines, writeLine } from '@portico/node-sections/channel';
import type { Launch } from './sandbox';

export interface WorkerProcessOptions {
  /** For the log: `section worker contact #3`. */
  name: string;
  launch: Launch;
  /** The largest message the worker may send; a bigger one ends it. */
  maxMessageBytes: number;
  /** Resident memory of the worker (its whole process tree), over which it is killed. */
  memoryLimitMb: number;
  /** How long the worker has to say it is ready. */
  startMs: number;
  /** The CPU it may spend (its whole process tree, read from /proc), over which it is killed; none: unbounded (the host's own shell worker). */
  cpu?: CpuBudget;
  log: Logger;
}

/** A message before it is numbered. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending {
  resolve: (message: unknown) => void;
  sentAt: number;
  /** Unanswered this long, the worker is taken to be stuck and killed. */
  killAfterMs: number;
}

/** How often the front server looks at each worker's memory and unanswered requests. */
const WATCH_MS = 250;
/** A worker's stdout and stderr reach the log as at most this many lines of this many characters: the worker runs a section's code. */
const LOG_LINES = 20;
const LOG_LINE_CHARS = 300;
/**
 * What a worker may write to its stdout and stderr together: a burst of this
 * many bytes, refilled at OUTPUT_BYTES_PER_S. Past it the worker talks too
 * much and is killed: reading a flood costs the front server's event loop
 * whether or not it is logged.
 */
const OUTPUT_BURST_BYTES = 256 * 1024;
const OUTPUT_BYTES_PER_S = 64 * 1024;

/**
 * What a worker may spend of the CPU, as a bucket: it starts full
 * (`burstSeconds`: the worker's start, its builds evaluated and warmed),
 * refills at `perSecond` of a core, and each question the front server asks
 * adds `perQuestion` (what answering it may cost), never past the burst.
 * Empty, the worker is killed. Section code has timers of its own
 * (`Atomics.waitAsync`) and can spin between the questions it answers in
 * time, which no deadline sees; this sees it.
 */
export interface CpuBudget {
  burstSeconds: number;
  perSecond: number;
  perQuestion: number;
}

/** Linux reports a process's CPU in /proc in USER_HZ, 100 a second on every architecture Node runs on. */
const USER_HZ = 100;

/** `pid` and every process under it (bubblewrap starts the worker two levels down; 64 at most), each one's /proc files read by `read`. */
function walkTree(pid: number, read: (pid: number) => void): void {
  const pending = [pid];
  for (let visited = 0; pending.length > 0 && visited < 64; visited += 1) {
    const current = pending.pop()!;
    try {
      read(current);
      for (const task of readdirSync(`/proc/${current}/task`)) {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // Gone meanwhile.
    }
  }
}

/** The resident memory of `pid` and every process under it, in kB. */
export function treeRssKb(pid: number): number {
  let total = 0;
  walkTree(pid, (current) => {
    total += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${current}/status`, 'utf8'))?.[1] ?? 0);
  });
  return total;
}

/**
 * The CPU time `pid` and every process under it have used (user and system,
 * every thread, and their children waited for), in seconds: measured by the
 * kernel, so nothing the worker runs can make it read less.
 */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  walkTree(pid, (current) => {
    const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
    // The command's name, in parentheses, may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime: fields 14 to 17 of proc(5), 12 to 15 counted from the state.
    for (const field of fields.slice(11, 15)) ticks += Number(field) || 0;
  });
  return ticks / USER_HZ;
}

/**
 * One worker process, started as its Launch says (in its sandbox), spoken to
 * over file descriptor 3 in JSON lines. The front server owns its life: it
 * answers within a time or is killed, it stays under its memory limit or is
 * killed, and what it writes is read within caps, because a section worker
 * runs code the server does not trust.
 */
export class WorkerProcess<To extends { id: number }, From extends { type: string }> {
  readonly child: ChildProcess;
  readonly ready: Promise<boolean>;
  readonly exited: Promise<string>;
  private readonly pending = new Map<number, Pending>();
  private readonly watch: NodeJS.Timeout;
  private nextId = 1;
  private logged = 0;
  private saidReady = false;
  private outputAllowance = OUTPUT_BURST_BYTES;
  private outputCountedAt = performance.now();
  private killedFor: string | undefined;
  private killedForItsConduct = false;
  /** What is left of its CPU budget, in seconds, and the CPU time and the moment it was counted at. */
  private cpuAllowance: number;
  private cpuCounted = 0;
  private cpuCountedAt = performance.now();
  alive = true;

  constructor(private readonly options: WorkerProcessOptions) {
    const { launch } = options;
    this.cpuAllowance = options.cpu?.burstSeconds ?? 0;
    try {
      this.child = spawn(launch.file, launch.args, {
        uid: launch.uid,
        gid: launch.gid,
        env: launch.env,
        cwd: '/',
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      launch.release?.();
      throw error;
    }
    const channel = this.child.stdio[3] as Duplex;
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.alive = false;
        // Its user may serve another worker (the range skips a user any process still runs as).
        launch.release?.();
        clearInterval(this.watch);
        for (const pending of this.pending.values()) pending.resolve(undefined);
        this.pending.clear();
        resolve(this.killedFor ?? (signal ? `ended by ${signal}` : `exited with code ${code}`));
      });
    });
    // A spawn that fails (no such file) emits 'error' and no 'exit'; Node has set exitCode to the negative errno by then.
    this.child.once('error', (error) => {
      this.killedFor ??= `could not be started: ${error.message}`;
      if (this.child.pid === undefined) this.child.emit('exit', null, null);
    });
    this.ready = new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.fault(`did not start within ${options.startMs / 1000} s`);
        resolve(false);
      }, options.startMs);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(false);
      });
      readLines(channel, {
        maxBytes: options.maxMessageBytes,
        onMessage: (message) => {
          // Killed, it is no longer heard: what it wrote before the signal landed is late, and nothing of it may reach a page.
          if (this.killedFor !== undefined) return;
          const { type, id } = (message ?? {}) as { type?: unknown; id?: unknown };
          if (type === 'ready' && !this.saidReady) {
            this.saidReady = true;
            clearTimeout(timer);
            resolve(true);
            return;
          }
          // Each message answers one question, once: anything else (a second
          // ready, an answer nobody asked for or asked again) is a worker out of
          // its protocol, and reading a flood of them costs every visitor.
          const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
          if (!pending) return this.fault('sent a message it was not asked for');
          this.pending.delete(id as number);
          pending.resolve(message);
        },
        onFault: (reason) => this.fault(reason),
      });
    });
    channel.on('error', () => undefined);
    this.readOutput(this.child.stdout);
    this.readOutput(this.child.stderr);
    this.watch = setInterval(() => this.check(), WATCH_MS);
    this.watch.unref();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * The answer, or undefined when the worker is gone or did not answer
   * within `answerWithinMs`. A request still unanswered after `killAfterMs`
   * (a section looping) gets the worker killed.
   */
  ask(message: WithoutId<To>, { answerWithinMs, killAfterMs }: { answerWithinMs: number; killAfterMs: number }): Promise<From | undefined> {
    if (!this.alive) return Promise.resolve(undefined);
    const id = this.nextId++;
    if (this.options.cpu) this.cpuAllowance = Math.min(this.options.cpu.burstSeconds, this.cpuAllowance + this.options.cpu.perQuestion);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), answerWithinMs);
      this.pending.set(id, {
        sentAt: performance.now(),
        killAfterMs,
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer as From | undefined);
        },
      });
      writeLine(this.child.stdio[3] as Duplex, { ...message, id });
    });
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Ends the worker at once (SIGKILL: a section's code gets no say), with the reason its exit reports. */
  kill(reason: string): void {
    if (!this.alive) return;
    this.killedFor ??= reason;
    this.child.kill('SIGKILL');
  }

  /**
   * Whether it ended of its own doing: it exited by itself, or was killed for
   * what it did (its deadlines, memory, CPU, output, protocol), not ended by
   * its owner (replaced, no longer wanted, the server stopping). What such a
   * worker answered before is not to be trusted further.
   */
  get faulted(): boolean {
    return !this.alive && (this.killedFor === undefined || this.killedForItsConduct);
  }

  /** Kills it for what it did (faulted). */
  private fault(reason: string): void {
    if (!this.alive || this.killedFor !== undefined) return;
    this.killedForItsConduct = true;
    this.kill(reason);
  }

  private check(): void {
    // Memory first: a section taking memory fast is stopped for that, whatever else it does.
    const pid = this.child.pid;
    if (pid !== undefined) {
      const rssMb = treeRssKb(pid) / 1024;
      if (rssMb > this.options.memoryLimitMb) {
        this.fault(`used ${Math.round(rssMb)} MB, over its ${this.options.memoryLimitMb} MB`);
        return;
      }
    }
    const now = performance.now();
    for (const pending of this.pending.values()) {
      if (now - pending.sentAt > pending.killAfterMs) {
        this.fault(`did not answer within ${pending.killAfterMs / 1000} s`);
        return;
      }
    }
    // After the deadlines: a loop inside a question is said as the deadline it missed.
    if (pid !== undefined && this.options.cpu) this.countCpu(pid, this.options.cpu);
  }

  /** Counts the CPU the worker used since the last look against its budget, and kills it past the budget. */
  private countCpu(pid: number, budget: CpuBudget): void {
    const used = treeCpuSeconds(pid);
    const now = performance.now();
    // A process of the tree gone takes its time with it: what is counted is what was added since the last look.
    const spent = Math.max(0, used - this.cpuCounted);
    this.cpuAllowance = Math.min(budget.burstSeconds, this.cpuAllowance + ((now - this.cpuCountedAt) / 1000) * budget.perSecond) - spent;
    this.cpuCounted = used;
    this.cpuCountedAt = now;
    if (this.cpuAllowance < 0)
      this.fault(`used more CPU than its budget (${budget.burstSeconds} s at once, ${Math.round(budget.perSecond * 1000) / 10} % of a core after that)`);
  }

  /** Counts `bytes` of output against the worker's allowance; false (and the worker killed) past it. */
  private allowOutput(bytes: number): boolean {
    const now = performance.now();
    this.outputAllowance = Math.min(OUTPUT_BURST_BYTES, this.outputAllowance + ((now - this.outputCountedAt) / 1000) * OUTPUT_BYTES_PER_S);
    this.outputCountedAt = now;
    this.outputAllowance -= bytes;
    if (this.outputAllowance >= 0) return true;
    this.fault(`wrote more than ${OUTPUT_BURST_BYTES / 1024} KB to its output at over ${OUTPUT_BYTES_PER_S / 1024} KB/s`);
    return false;
  }

  /** What the worker prints reaches the log prefixed, stripped of control characters, and capped. */
  private readOutput(stream: Readable | null): void {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      if (!this.allowOutput(chunk.length)) return;
      if (this.logged > LOG_LINES) return;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!.slice(0, LOG_LINE_CHARS);
      for (const line of lines) {
        this.logged += 1;
        if (this.logged > LOG_LINES) {
          this.options.log.warn(`${this.options.name}: further output not logged`);
          return;
        }
        // Control and format characters (bidi overrides among them) could forge or hide a log line.
        const clean = line.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ').slice(0, LOG_LINE_CHARS);
        this.options.log.info(`${this.options.name}: ${clean}`);
      }
    });
  }
}
