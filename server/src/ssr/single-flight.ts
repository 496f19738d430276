import { ByteCache } from './byte-cache';

export interface SingleFlightOptions<T> {
  /** The bytes the kept values may hold (ByteCache). */
  maxBytes: number;
  /** What one value holds, for that budget. */
  bytesOf: (value: T) => number;
  /** Off: nothing is kept, every page asks its worker again (PORTICO_SSR_CACHE=0); renders under way are still shared. */
  keep: boolean;
}

interface Flight<T> {
  started: number;
  promise: Promise<T | undefined>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/**
 * What the worker pools answer pages from: a value kept by key (bounded in
 * bytes), else the one render under way for that key, else a new one. Pages
 * that miss together cause one render, not one each; each page waits no
 * later than its own deadline, and a render still unanswered then is left
 * to finish for the next page.
 */
export class SingleFlight<T extends NonNullable<unknown>> {
  private readonly kept: ByteCache<T>;
  private readonly flights = new Map<string, Flight<T>>();

  constructor(private readonly options: SingleFlightOptions<T>) {
    this.kept = new ByteCache<T>(options.maxBytes);
  }

  /** The bytes the kept values hold now. */
  get bytes(): number {
    return this.kept.bytes;
  }

  cached(key: string): T | undefined {
    return this.options.keep ? this.kept.get(key) : undefined;
  }

  /** Keeps a value made outside a page (a worker warming up). */
  keep(key: string, value: T): void {
    if (this.options.keep) this.kept.set(key, value, this.options.bytesOf(value));
  }

  /**
   * The value `render` makes for `key`, kept once made (undefined: none, not
   * kept); a render for `key` under way is joined, not started again. Waits
   * no later than `deadline` (performance.now()), and not at all for a render
   * started more than `staleAfterMs` ago: its worker is stuck or slow.
   */
  get(key: string, render: () => Promise<T | undefined>, deadline: number, staleAfterMs = Number.POSITIVE_INFINITY): Promise<T | undefined> {
    let flight = this.flights.get(key);
    if (!flight) {
      const promise = render()
        .then((value) => {
          if (value !== undefined) this.keep(key, value);
          return value;
        })
        .finally(() => this.flights.delete(key));
      flight = { started: performance.now(), promise };
      this.flights.set(key, flight);
    }
    if (performance.now() - flight.started > staleAfterMs) return Promise.resolve(undefined);
    return Promise.race([flight.promise, delay(deadline - performance.now()).then(() => undefined)]);
  }

  /** The kept values `drop` says go (a dead worker's answers); true when any went. */
  forgetWhere(drop: (value: T) => boolean): boolean {
    const before = this.kept.size;
    this.kept.deleteWhere((_key, value) => drop(value));
    return this.kept.size < before;
  }

  /** Every kept value goes (a new worker answers from now on); renders under way finish. */
  clear(): void {
    this.kept.clear();
  }
}
