import { test } from '@playwright/test';

/**
 * How long a server a test starts may take to be ready, apart from the test's
 * own timeout: a 2-core machine that is also building can take tens of
 * seconds to warm the render workers (each in its own sandbox), and that is
 * not what the test is about. A server that does not start in this time
 * fails the test with "did not start" and the server's log.
 */
export const SERVER_START_LIMIT_MS = 120_000;

/**
 * Gives the running test (or hook) `SERVER_START_LIMIT_MS` more time, so a
 * slow start-up never eats into the time its own steps have. Outside a test
 * (a worker fixture has its own timeout) this does nothing.
 */
export function allowServerStart(): void {
  let info;
  try {
    info = test.info();
  } catch {
    return;
  }
  if (info.timeout > 0) info.setTimeout(info.timeout + SERVER_START_LIMIT_MS);
}

/** Runs `start` within the start-up limit; on failure, says the server did not start, with its log. */
export async function withinStartLimit<T>(what: string, start: () => Promise<T>, log: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready after ${SERVER_START_LIMIT_MS / 1000} s`)), SERVER_START_LIMIT_MS);
  });
  try {
    return await Promise.race([start(), limit]);
  } catch (error) {
    throw new Error(`${what} did not start: ${(error as Error).message}\n--- its log ---\n${log() || '(nothing logged)'}`);
  } finally {
    clearTimeout(timer);
  }
}
