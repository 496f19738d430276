import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import { mayRaiseTo, startNiceOf } from '../../compile/start-priority.cjs';

// A restarted server's start yields the CPU to the server serving beside it
// (issue 51, bench:restart), and only where it can take it back once ready:
// compile/start-priority.cjs, used by serve.cjs.

const HELPER = path.resolve(__dirname, '../../compile/start-priority.cjs');
const status = (capabilities: string) => `Name:\tnode\nCapInh:\t0000000000000000\nCapEff:\t${capabilities}\n`;
/** Whether this process may lower its start (and raise it back): tests run as root, where it may. */
const lowers = () => mayRaiseTo(getPriority(), { status: readFileSync('/proc/self/status', 'utf8'), limits: readFileSync('/proc/self/limits', 'utf8') });
const limits = (soft: number) =>
  `Limit                     Soft Limit           Hard Limit           Units\nMax nice priority         ${soft}                    ${soft}\n`;

test('lowered only when the priority can be raised back: CAP_SYS_NICE, or an RLIMIT_NICE reaching the nice value it had', () => {
  expect(mayRaiseTo(0, { status: status('000001fffeffffff'), limits: limits(0) })).toBe(true);
  // Docker's default capabilities: no CAP_SYS_NICE (bit 23).
  expect(mayRaiseTo(0, { status: status('00000000a80425fb'), limits: limits(0) })).toBe(false);
  expect(mayRaiseTo(0, { status: status('0000000000000000'), limits: limits(20) })).toBe(true);
  expect(mayRaiseTo(0, { status: status('0000000000000000'), limits: limits(19) })).toBe(false);
  expect(mayRaiseTo(5, { status: status('0000000000000000'), limits: limits(15) })).toBe(true);
});

test('PORTICO_START_NICE: 0 to 19 steps, 10 unset; anything else is left to the settings to refuse', () => {
  expect(startNiceOf(undefined)).toBe(10);
  expect(startNiceOf('')).toBe(10);
  expect(startNiceOf('0')).toBe(0);
  expect(startNiceOf(' 19 ')).toBe(19);
  expect(startNiceOf('20')).toBe(10);
  expect(startNiceOf('-5')).toBe(10);
  expect(startNiceOf('low')).toBe(10);
});

test('what the start spawned (a render worker, and the process its sandbox starts) is put back with the server, not left lowered', () => {
  const launched = getPriority();
  // A "server" lowered for its start, which starts a "worker" that starts a process of its own (as bwrap does), then is ready.
  const program = `
    const { spawn } = require('node:child_process');
    const os = require('node:os');
    const start = require(${JSON.stringify(HELPER)}).lowerForStart({ nice: '6' });
    const worker = spawn(process.execPath, ['-e', "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
    const inner = () => Number(require('node:fs').readFileSync('/proc/' + worker.pid + '/task/' + worker.pid + '/children', 'utf8').trim());
    const wait = setInterval(() => {
      let pid;
      try { pid = inner(); } catch { return; }
      if (!pid) return;
      clearInterval(wait);
      const before = [os.getPriority(), os.getPriority(worker.pid), os.getPriority(pid)];
      start.restore();
      const after = [os.getPriority(), os.getPriority(worker.pid), os.getPriority(pid)];
      console.log(JSON.stringify({ before, after }));
      process.kill(pid);
      worker.kill();
    }, 20);
  `;
  const { before, after } = JSON.parse(execFileSync(process.execPath, ['-e', program], { encoding: 'utf8', timeout: 60_000 })) as {
    before: number[];
    after: number[];
  };
  const low = lowers() ? Math.min(19, launched + 6) : launched;
  expect(before).toEqual([low, low, low]);
  expect(after).toEqual([launched, launched, launched]);
});

test('a start that is not ready in time is lowered no longer: on a busy machine it would get too little CPU to start', () => {
  const launched = getPriority();
  // Never ready: the bound (100 ms here, LOWERED_AT_MOST_MS in serve.cjs) puts it back by itself.
  const program = `
    const os = require('node:os');
    require(${JSON.stringify(HELPER)}).lowerForStart({ nice: '6', withinMs: 100 });
    const during = os.getPriority();
    setTimeout(() => console.log(JSON.stringify([during, os.getPriority()])), 1000);
  `;
  const [during, after] = JSON.parse(execFileSync(process.execPath, ['-e', program], { encoding: 'utf8', timeout: 60_000 })) as number[];
  expect(during).toBe(lowers() ? Math.min(19, launched + 6) : launched);
  expect(after).toBe(launched);
});
