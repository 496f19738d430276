import { performance } from 'node:perf_hooks';
import { lockDataFolder } from '../data-folder';

/**
 * One contender of the lock race test (data-folder.test.ts): told a folder
 * and a moment, it spins until that moment (so two processes try within
 * microseconds of each other), tries to lock the folder, reports, and
 * releases when told.
 */
let held: { release(): void } | undefined;

/** How long before the moment a contender wakes to spin: more than a timer's lateness on a busy machine. */
const SPIN_MS = 5;

process.on('message', (message: { type: 'race'; folder: string; at: number } | { type: 'release' }) => {
  if (message.type === 'release') {
    held?.release();
    held = undefined;
    process.send!({ type: 'released' });
    return;
  }
  // Asleep until just before the moment, then spinning: a timer would wake
  // each contender a millisecond apart, and spinning all the way (some 35 ms
  // a round, 240 contender-rounds a run) cost the test 8 CPU-s.
  const now = () => performance.timeOrigin + performance.now();
  setTimeout(
    () => {
      while (now() < message.at) {
        // Spinning, not sleeping: the two try within microseconds of each other.
      }
      race(message.folder);
    },
    Math.max(0, message.at - now() - SPIN_MS),
  );
});

function race(folder: string): void {
  try {
    held = lockDataFolder(folder);
    process.send!({ type: 'result', got: true });
  } catch (error) {
    process.send!({ type: 'result', got: false, error: (error as Error).message });
  }
}
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
