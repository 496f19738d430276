/**
 * Waits for something a test cannot be told about directly (a background
 * poll, a worker restarting, a row another process writes): calls `check`
 * until it holds or `withinMs` passes. `check` holds when it returns anything
 * but `false` without throwing, so it can be a condition (`() => seen > 0`)
 * or a block of `expect`s. On the deadline the failure carries the last
 * assertion's own message, so it says what was awaited and what was seen
 * instead of only "timed out". One helper for every test, so a bound or a
 * pace is never re-invented (and never a fixed sleep).
 */
export interface EventuallyOptions {
  /** What is awaited, for the failure's message (the default names nothing). */
  readonly what?: string;
  /** The deadline; generous by default, since a test asserts the outcome, not the speed. */
  readonly withinMs?: number;
  /** The pause between two checks. */
  readonly everyMs?: number;
}

const EVENTUALLY_WITHIN_MS = 30_000;
const EVENTUALLY_EVERY_MS = 25;

/** Resolves with what `check` returned once it holds; rejects with the last failure after `withinMs`. */
export async function eventually<T>(check: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const { what = 'the awaited condition', withinMs = EVENTUALLY_WITHIN_MS, everyMs = EVENTUALLY_EVERY_MS } = options;
  const deadline = Date.now() + withinMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
    } catch (error) {
      failure = error;
    }
    if (Date.now() >= deadline) throw notWithin(what, withinMs, failure);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function notWithin(what: string, withinMs: number, failure: unknown): Error {
  const heading = `${what}: not within ${withinMs} ms`;
  if (failure === undefined) return new Error(`${heading} (the condition was still false)`);
  return new Error(`${heading}; the last check failed with:\n${failure instanceof Error ? failure.message : String(failure)}`, { cause: failure });
}
