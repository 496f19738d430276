import { performance } from 'node:perf_hooks';
import { lockDataFolder } from '../data-folder';

/**
 * One contender of the lock race test (data-folder.test.ts): told a folder
 * and a moment, it spins until that moment (so two processes try within
 * microseconds of each other), tries to lock the folder, reports, and
 * releases when told.
 */
let held: { release(): void } | undefined;

process.on('message', (message: { type: 'race'; folder: string; at: number } | { type: 'release' }) => {
  if (message.type === 'release') {
    held?.release();
    held = undefined;
    process.send!({ type: 'released' });
    return;
  }
  while (performance.timeOrigin + performance.now() < message.at) {
    // Spinning, not sleeping: a timer would wake each contender a millisecond apart.
  }
  try {
    held = lockDataFolder(message.folder);
    process.send!({ type: 'result', got: true });
  } catch (error) {
    process.send!({ type: 'result', got: false, error: (error as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
