import type { JobClock } from '../job-clock';

/** A JobClock a test turns by hand: `advance` moves the time and runs every job that fell due, in order, as the timers would have. */
export interface ManualClock extends JobClock {
  advance(ms: number): void;
}

export function manualClock(start: Date): ManualClock {
  let now = start.getTime();
  const jobs = new Set<{ ms: number; due: number; run: () => void }>();
  return {
    now: () => new Date(now),
    every(ms, run, firstMs = ms) {
      const job = { ms, due: now + firstMs, run };
      jobs.add(job);
      return () => jobs.delete(job);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = [...jobs].filter((job) => job.due <= until).sort((a, b) => a.due - b.due)[0];
        if (!next) break;
        now = next.due;
        next.due += next.ms;
        next.run();
      }
      now = until;
    },
  };
}
