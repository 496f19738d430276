/**
 * What a scheduled job reads the time from and is woken by. The server
 * runs its jobs on the system's clock; a test turns a hand-held one, so an
 * hour can pass (a failure rate's whole hour, a canary's window) without
 * waiting for it, and a round runs when the test says, not when a timer
 * happens to fire on a busy machine.
 */
export interface JobClock {
  now(): Date;
  /**
   * Runs `run` every `ms` (the first time after `firstMs`, `ms` by default:
   * a job that need not run at start waits for the server to settle) until
   * the returned function is called; never what keeps the process alive.
   */
  every(ms: number, run: () => void, firstMs?: number): () => void;
}

/** The system's clock and timers. */
export const systemClock: JobClock = {
  now: () => new Date(),
  every(ms, run, firstMs = ms) {
    if (firstMs === ms) {
      const timer = setInterval(run, ms);
      timer.unref();
      return () => clearInterval(timer);
    }
    let timer: NodeJS.Timeout = setTimeout(() => {
      timer = setInterval(run, ms);
      timer.unref();
      run();
    }, firstMs);
    timer.unref();
    // clearTimeout and clearInterval clear either kind of Node's timers.
    return () => clearTimeout(timer);
  },
};
