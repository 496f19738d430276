/** The host's server workers, as its build writes them (webpack/src/server-workers-build.ts). */
export const SHELL_WORKER_PATH = 'host/dist-node/shell-worker.js';
export const SECTION_WORKER_PATH = 'host/dist-node/section-worker.js';

/**
 * The documented limits of server rendering (docs/server.md, "Server rendering").
 * Each bounds what a visitor or a section team could otherwise make the
 * server spend.
 */
export const SSR_LIMITS = {
  /** How long a page may take on the server before the client-rendered page is sent instead. */
  budgetMs: 400,
  /** V8's heap limit per worker; the RSS watchdog below is the real cap. */
  heapMb: 128,
  /** A worker's resident memory (its whole process tree) over this, and it is killed. */
  workerMemoryMb: 256,
  /** A manifest larger than this is neither inlined in the page nor its section rendered on the server. */
  manifestInlineBytes: 64 * 1024,
  /** A section's HTML larger than this is not put into the page (the section is rendered in the browser). */
  sectionHtmlBytes: 256 * 1024,
  /** The composed pages kept, with their compressed copies. */
  pageCacheBytes: 64 * 1024 * 1024,
  /** The shells and the sections' HTML kept. */
  shellCacheBytes: 16 * 1024 * 1024,
  sectionCacheBytes: 16 * 1024 * 1024,
  /** `npm run serve` waits this long at most for the first workers to be warm (the shell's: the host's own code), then serves anyway. */
  firstWarmMs: 30_000,
  /**
   * What a section's start-up may hold the port: this long at most, and not
   * past its first worker's death (a restart waits its backoff). A section
   * not warm by then is rendered in the browser until it is.
   */
  sectionStartHoldMs: 10_000,
} as const;

export const MANIFEST_POLL_MS = 1000;
export const MANIFEST_TIMEOUT_MS = 3000;
/**
 * What each section worker may spend of the CPU (worker-process.ts,
 * CpuBudget): 5 s at once (its start, its builds evaluated and warmed:
 * 0.2 s for About and Contact here, renders included), then a tenth of a
 * core, and 0.1 s more for each question it is asked. A worker that spins
 * between the questions it answers in time (a timer from
 * `Atomics.waitAsync`) is killed once the 5 s are spent, then restarted and
 * set aside as a loop is. The host's shell worker has none: it runs the
 * host's own code.
 */
export const SECTION_CPU_BUDGET = { burstSeconds: 5, perSecond: 0.1, perQuestion: 0.1 } as const;
/** A section's render unanswered this long means its worker loops: it is killed. */
export const SECTION_RENDER_KILL_MS = 3000;
/** Evaluating a section's builds (top-level code) unanswered this long: killed. */
export const SECTION_LOAD_KILL_MS = 5000;
export const SHELL_RENDER_KILL_MS = 5000;
export const WORKER_START_MS = 10_000;
/** A section that failed to render is asked again after this long, not at every page. */
export const FAILED_RENDER_MS = 5000;
/** A node build that could not be fetched is tried again after this long. */
export const FAILED_FETCH_MS = 5000;
/** How many distinct host names a new worker warms up with (the default config.json differs per host). */
export const WARM_HOSTS = 4;
/** How many previewed releases of one section are kept warm besides its live one (least recently opened first out). */
export const PREVIEW_SITES = 2;
/** The largest answer a worker may send: a section's HTML (capped again when checked), a shell with its template. */
export const SECTION_MESSAGE_BYTES = 2 * SSR_LIMITS.sectionHtmlBytes;
export const SHELL_MESSAGE_BYTES = 8 * 1024 * 1024;
