/**
 * What a scheduled job reads the time from and is woken by. The server
 * runs its jobs on the system's clock; a test turns a hand-held one, so an
 * hour can pass (a failure rate's whole hour, a canary's window) without
 * waiting for it, and a round runs when the test says, not when a timer
 * happens to fire on a busy machine.
 */
export interface JobClock {
  now(): Date;
  /** Runs `run` every `ms` until the returned function is called; never what keeps the process alive. */
  every(ms: number, run: () => void): () => void;
}

/** The system's clock and timers. */
export const systemClock: JobClock = {
  now: () => new Date(),
  every(ms, run) {
    const timer = setInterval(run, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
