import { formatRedeployReport, memoryDelta, missedTargets, type MemorySnapshot, type RedeployReport } from '../redeploy-report';

const snapshot = (frontRss: number, workerRss: number | undefined, generation: number): MemorySnapshot => ({
  front: { rss: frontRss, heap: 15, heapTotal: 50, external: 4 },
  workerRss,
  cachedPages: 2,
  generation,
});

const report = (changes: Partial<RedeployReport> = {}): RedeployReport => ({
  redeploys: 50,
  start: snapshot(140, 80, 2),
  after: snapshot(150, 75, 52),
  delays: [1000, 980, 1200, 3060],
  workersSeen: 51,
  stillRunning: [],
  settledMs: 3400,
  ...changes,
});

describe('the redeploy report', () => {
  test('the front server and the worker are added up; within the targets nothing is missed', () => {
    expect(memoryDelta(report())).toBe(5);
    expect(missedTargets(report())).toEqual([]);
  });

  test('more than 30 MB of growth is missed', () => {
    const grown = report({ after: snapshot(175, 76, 52) });
    expect(missedTargets(grown)).toEqual(['memory grew by 31.0 MB (target at most 30 MB)']);
    expect(formatRedeployReport(grown, 300)).toContain('| **+31.0 MB** | at most +30 MB: **missed** |');
  });

  test('a worker left running besides the live one is missed, zombies and never-live ones named', () => {
    const leaked = report({
      stillRunning: [
        { pid: 4321, wasLive: true, state: 'Z (zombie)' },
        { pid: 4322, wasLive: false, state: 'S (sleeping)' },
      ],
    });
    expect(missedTargets(leaked)).toEqual(['workers still running besides the live one: 4321 (was live, Z (zombie)), 4322 (never live, S (sleeping))']);
    expect(formatRedeployReport(leaked, 300)).toMatch(/older workers still running \| {2}\| 2: 4321 .*\| 0: \*\*missed\*\* \|/);
  });

  test('a redeploy slower than 5 s to show is missed; the table gives p50 and max', () => {
    const slow = report({ delays: [900, 1000, 5200] });
    expect(missedTargets(slow)).toEqual(['a redeploy took 5.20 s to show (target at most 5 s)']);
    expect(formatRedeployReport(slow, 300)).toContain('| 1.00 s / 5.20 s |  | at most 5 s: **missed** |');
  });

  test('no live worker at either end is a miss, not a figure', () => {
    const down = report({ after: snapshot(150, undefined, 52) });
    expect(memoryDelta(down)).toBeUndefined();
    expect(missedTargets(down)).toEqual(['no live worker to measure']);
    expect(formatRedeployReport(down, 300)).toContain('| live worker RSS | 80.0 MB | n/a | n/a |  |');
  });
});
