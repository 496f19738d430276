import type { SectionId } from '@portico/contract/sections';
import type { PageEncoding } from './page-answer';

/** The work a page costs after its parts arrive: composing it, then compressing it in the visitor's encoding. */
export type PageWork = 'compose' | Exclude<PageEncoding, 'identity'>;

/**
 * The cost per KB of HTML before a page has been measured here: about twice
 * what a 550 KB page of random text took on the project's 2-core machine
 * (brotli 5: 22 ms, gzip 6: 10 ms; composition well under 1 ms per 100 KB).
 */
const FIRST_GUESS_MS_PER_KB: Record<PageWork, number> = { compose: 0.01, br: 0.08, gzip: 0.04 };

/** How much each new measurement moves the estimate: the last few pages count most. */
const WEIGHT = 0.25;

/** Below this a page's cost is mostly fixed overhead, not bytes: not a measurement of the rate. */
const MEASURED_FROM_BYTES = 16 * 1024;

/**
 * What composing and compressing a page costs on this server now, learnt
 * from the pages it made (each measured, the newest weighing most): how a
 * page request knows, before it composes anything, what fits in what is
 * left of its budget. Compressions run a few at a time (`lanes`); a page
 * waits for the bytes queued before it.
 */
export class PageCosts {
  private readonly msPerKb: Record<PageWork, number> = { ...FIRST_GUESS_MS_PER_KB };

  constructor(private readonly lanes: number) {}

  /** `work` on `bytes` of HTML took `ms`. */
  note(work: PageWork, bytes: number, ms: number): void {
    if (bytes < MEASURED_FROM_BYTES || !(ms >= 0)) return;
    this.msPerKb[work] += WEIGHT * (ms / (bytes / 1024) - this.msPerKb[work]);
  }

  /** How long a page of `bytes` takes from now until composed and compressed in `encoding`, with `queued` bytes to be compressed before it. */
  estimate(bytes: number, encoding: PageEncoding, queued = 0): number {
    const compose = (bytes / 1024) * this.msPerKb.compose;
    if (encoding === 'identity') return compose;
    return compose + ((queued / this.lanes + bytes) / 1024) * this.msPerKb[encoding];
  }
}

/** A section's part of a page, by the bytes it adds to it. */
export interface PartSize {
  section: SectionId;
  bytes: number;
}

/**
 * The sections to leave to the browser so that a page is ready by its
 * deadline: none when the page with all of them fits in `remainingMs`
 * (`costOf` the time to compose and compress a page of that many bytes),
 * else the largest first until the rest fit. The page around them
 * (`baseBytes`) is never left out here: past its own time, the whole page
 * is the client-rendered one.
 */
export function sectionsOverBudget(baseBytes: number, parts: readonly PartSize[], remainingMs: number, costOf: (bytes: number) => number): Set<SectionId> {
  const left = new Set<SectionId>();
  let bytes = baseBytes + parts.reduce((sum, part) => sum + part.bytes, 0);
  for (const part of [...parts].sort((a, b) => b.bytes - a.bytes)) {
    if (costOf(bytes) <= remainingMs) break;
    left.add(part.section);
    bytes -= part.bytes;
  }
  return left;
}

/**
 * Runs at most `lanes` compressions at a time, in order: the thread pool
 * they share has four threads, which also read every file a request needs
 * (config.json, index.html, the built files), so pages being compressed
 * never hold every thread while a cached page waits for a file.
 */
export class CompressionLanes {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** The bytes given to compress and not yet compressed, for the estimate of a page's wait. */
  queuedBytes = 0;

  constructor(readonly lanes: number) {}

  async run<T>(bytes: number, compress: () => Promise<T>): Promise<T> {
    this.queuedBytes += bytes;
    if (this.running < this.lanes) this.running += 1;
    // A lane that frees up is handed to the next in line, never taken by one arriving meanwhile.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await compress();
    } finally {
      this.queuedBytes -= bytes;
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The page's answer was not ready by the page's deadline. */
export class PastBudget extends Error {}

/** `body`, or PastBudget if it is not there by `deadline` (`performance.now()`). */
export function byDeadline<T>(body: Promise<T>, deadline: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PastBudget('the page was not ready within its budget')), Math.max(0, deadline - performance.now()));
  });
  return Promise.race([body, late]).finally(() => clearTimeout(timer));
}
