/** Issue 13's targets for a run of redeploys in a row. */
const TARGETS = {
  /** The front server's plus the live worker's RSS afterwards, against before. */
  memoryDeltaMb: 30,
  /** Workers of older generations still running afterwards. */
  olderWorkers: 0,
  /** From a redeploy to the server-rendered page showing it. */
  redeployMs: 5000,
} as const;

/** One moment's memory, in MB (MiB). */
export interface MemorySnapshot {
  /** The front server: this process's RSS, its V8 heap in use and reserved, and memory outside the heap (Buffers), after full collections. */
  front: { rss: number; heap: number; heapTotal: number; external: number };
  /** The live worker's RSS; undefined when none was live. */
  workerRss: number | undefined;
  cachedPages: number;
  generation: number | undefined;
}

/** A worker process other than the live one, after settling. */
export interface StillRunning {
  pid: number;
  /** Whether it was ever the live worker (false: one started and never switched in). */
  wasLive: boolean;
  /** Its State in /proc/<pid>/status (`Z (zombie)`: exited, not reaped). */
  state: string;
}

export interface RedeployReport {
  redeploys: number;
  start: MemorySnapshot;
  after: MemorySnapshot;
  /** Each redeploy's delay until the page showed it, in ms, in order. */
  delays: number[];
  /** How many distinct live workers were seen. */
  workersSeen: number;
  /** Worker processes but the live one that still had a process entry (a zombie counts) after settling. */
  stillRunning: StillRunning[];
  /** From the last redeploy showing to one worker left with no renewal for a while (or the whole wait, when that never came). */
  settledMs: number;
}

const total = (snapshot: MemorySnapshot) => (snapshot.workerRss === undefined ? undefined : snapshot.front.rss + snapshot.workerRss);

export function memoryDelta(report: RedeployReport): number | undefined {
  const before = total(report.start);
  const after = total(report.after);
  return before === undefined || after === undefined ? undefined : after - before;
}

function delayPercentiles(delays: number[]): { p50: number; max: number } {
  const sorted = [...delays].sort((a, b) => a - b);
  return { p50: sorted[Math.floor((sorted.length - 1) / 2)]!, max: sorted.at(-1)! };
}

/** The targets missed, in words; empty when every one is met. */
export function missedTargets(report: RedeployReport): string[] {
  const missed: string[] = [];
  const delta = memoryDelta(report);
  if (delta === undefined) missed.push('no live worker to measure');
  else if (delta > TARGETS.memoryDeltaMb) missed.push(`memory grew by ${delta.toFixed(1)} MB (target at most ${TARGETS.memoryDeltaMb} MB)`);
  if (report.stillRunning.length > TARGETS.olderWorkers) missed.push(`workers still running besides the live one: ${describe(report.stillRunning)}`);
  const { max } = delayPercentiles(report.delays);
  if (max > TARGETS.redeployMs) missed.push(`a redeploy took ${(max / 1000).toFixed(2)} s to show (target at most ${TARGETS.redeployMs / 1000} s)`);
  return missed;
}

const describe = (workers: StillRunning[]) => workers.map(({ pid, wasLive, state }) => `${pid} (${wasLive ? 'was live' : 'never live'}, ${state})`).join(', ');

const mb = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(1)} MB`);
const signedMb = (value: number | undefined) => (value === undefined ? 'n/a' : `${value >= 0 ? '+' : ''}${value.toFixed(1)} MB`);
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

/** The markdown tables `npm run measure:ssr` prints. */
export function formatRedeployReport(report: RedeployReport, runs: number): string {
  const { start, after } = report;
  const delta = memoryDelta(report);
  const { p50, max } = delayPercentiles(report.delays);
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    `${report.redeploys} redeploys of Contact's node build in a row (each a new build, then its manifest; each waited for until the page showed it).`,
    `Memory after full GCs in the front server, each time after ${runs} page requests plus each page in br, gzip and identity; RSS is VmRSS from /proc (MB = MiB); the front server is this process, load generator included:`,
    '',
    row(['measure', 'start', `after ${report.redeploys} redeploys`, 'delta', 'target']),
    row(['---', '---', '---', '---', '---']),
    row(['front server RSS', mb(start.front.rss), mb(after.front.rss), signedMb(after.front.rss - start.front.rss), '']),
    row(['front server V8 heap used', mb(start.front.heap), mb(after.front.heap), signedMb(after.front.heap - start.front.heap), '']),
    row(['front server V8 heap reserved', mb(start.front.heapTotal), mb(after.front.heapTotal), signedMb(after.front.heapTotal - start.front.heapTotal), '']),
    row(['front server external (Buffers)', mb(start.front.external), mb(after.front.external), signedMb(after.front.external - start.front.external), '']),
    row([
      'live worker RSS',
      mb(start.workerRss),
      mb(after.workerRss),
      signedMb(after.workerRss === undefined || start.workerRss === undefined ? undefined : after.workerRss - start.workerRss),
      '',
    ]),
    row([
      '**front + worker RSS**',
      mb(total(start)),
      mb(total(after)),
      `**${signedMb(delta)}**`,
      `at most +${TARGETS.memoryDeltaMb} MB: ${verdict(delta !== undefined && delta <= TARGETS.memoryDeltaMb)}`,
    ]),
    row([
      'worker generation / pages cached',
      `${start.generation ?? 'none'} / ${start.cachedPages}`,
      `${after.generation ?? 'none'} / ${after.cachedPages}`,
      '',
      '',
    ]),
    row([
      'older workers still running',
      '',
      report.stillRunning.length === 0
        ? `0 (of ${report.workersSeen} seen live; one worker left ${(report.settledMs / 1000).toFixed(2)} s after the last redeploy showed)`
        : `${report.stillRunning.length}: ${describe(report.stillRunning)} (of ${report.workersSeen} seen live; waited ${(report.settledMs / 1000).toFixed(2)} s)`,
      '',
      `${TARGETS.olderWorkers}: ${verdict(report.stillRunning.length <= TARGETS.olderWorkers)}`,
    ]),
    row([
      'redeploy to page: p50 / max',
      '',
      `${(p50 / 1000).toFixed(2)} s / ${(max / 1000).toFixed(2)} s`,
      '',
      `at most ${TARGETS.redeployMs / 1000} s: ${verdict(max <= TARGETS.redeployMs)}`,
    ]),
  ].join('\n');
}
