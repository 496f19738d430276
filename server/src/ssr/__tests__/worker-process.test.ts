import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Supervisor } from '../supervisor';
import { treeCpuSeconds, treeRssKb, WorkerProcess, type WorkerProcessOptions } from '../worker-process';
import { eventually } from '@portico/testing/eventually';

// Real child processes: a small worker script that speaks JSON lines on
// file descriptor 3, as the section worker does, and does on request what a
// section's code could make it do. Every wait is on the worker's own events,
// or a poll within a generous bound; no test asserts how long anything took.

jest.setTimeout(60_000);

/** The worker's side: JSON lines in on fd 3, and a behaviour for each message type. */
const WORKER_SCRIPT = String.raw`
const { Socket } = require('node:net');
const { spawn } = require('node:child_process');
const channel = new Socket({ fd: 3, readable: true, writable: true });
const send = (message) => channel.write(JSON.stringify(message) + '\n');
channel.on('close', () => process.exit(0));
channel.on('error', () => process.exit(0));
const keep = [];
let buffered = '';
channel.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    handle(JSON.parse(line));
  }
});
function handle({ id, type, value, delayMs }) {
  switch (type) {
    case 'double':
      return setTimeout(() => send({ type: 'doubled', id, value: value * 2 }), delayMs ?? 0);
    case 'ignore':
      return;
    case 'no-newline':
      return channel.write(Buffer.alloc(5 * 1024 * 1024, 'a'), () => process.stderr.write('wrote it all\n'));
    case 'huge-line':
      return channel.write(JSON.stringify({ type: 'big', id, pad: 'a'.repeat(5 * 1024 * 1024) }) + '\n', () => process.stderr.write('wrote it all\n'));
    case 'not-json':
      return channel.write('hello, front server\n');
    case 'hog': {
      const timer = setInterval(() => (keep.length >= 64 ? clearInterval(timer) : keep.push(Buffer.alloc(16 * 1024 * 1024, 1))), 10);
      return;
    }
    case 'child': {
      // A child taking value MB, which ends when this process does (its stdin closes).
      const code = 'const b = Buffer.alloc(' + value + ' * 1024 * 1024, 1); process.stdout.write("allocated\\n"); process.stdin.on("end", () => process.exit(0)); process.stdin.resume();';
      const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'ignore'] });
      process.stderr.write('child ' + child.pid + '\n');
      return child.stdout.once('data', () => send({ type: 'child', id, value: child.pid }));
    }
    case 'print':
      process.stdout.write('\x1b[31mred\x1b[0m and \x1b]0;a new title\x07\n');
      process.stdout.write('progress 10%\rprogress 100%\n');
      process.stdout.write('one\u2028two\u2029three\x00four\x7f\x85\n');
      process.stdout.write('x'.repeat(1000) + '\n');
      for (let line = 5; line <= 40; line += 1) process.stdout.write('line ' + line + '\n');
      return send({ type: 'printed', id });
    case 'print-stderr':
      process.stderr.write('from stderr\n');
      return send({ type: 'printed', id });
    case 'flood':
      // After an escape: small, valid messages no one asked for, as fast as the pipe takes them.
      return (function more() { for (let i = 0; i < 100; i += 1) send({ type: 'doubled', id: 1e9 + i, value: i }); setImmediate(more); })();
    case 'answer-twice':
      send({ type: 'doubled', id, value: 1 });
      return send({ type: 'doubled', id, value: 2 });
    case 'ready-again':
      return send({ type: 'ready' });
    case 'shout':
      return (function more() { process.stdout.write('x'.repeat(64 * 1024)); setImmediate(more); })();
    case 'spin': {
      // Section code's own timer (no setTimeout in its context): 40 ms busy, 2 ms waiting, for ever; questions are answered in between.
      const cell = new Int32Array(new SharedArrayBuffer(4));
      (function burn() {
        const until = Date.now() + 40;
        while (Date.now() < until) {}
        Atomics.waitAsync(cell, 0, 0, 2).value.then(burn);
      })();
      return send({ type: 'spinning', id });
    }
    case 'spin-child': {
      const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
      return send({ type: 'child', id, value: child.pid });
    }
    case 'answer-then-mark':
      // The answer is in the pipe once the mark is there.
      return channel.write(JSON.stringify({ type: 'doubled', id, value: 2 }) + '\n', () => require('node:fs').writeFileSync(process.env.MARK, 'written'));
    case 'print-split':
      process.stdout.write('hel');
      return setTimeout(() => {
        process.stdout.write('lo, whole\n');
        send({ type: 'printed', id });
      }, 50);
  }
}
if (process.argv[2] !== 'never-ready') send({ type: 'ready' });
if (process.argv[2] === 'chatty') handle({ type: 'flood' });
`;

type ToWorker = { id: number; type: string; value?: number; delayMs?: number };
type FromWorker = { type: string; id?: number; value?: number };

let folder: string;
let script: string;
const started: WorkerProcess<ToWorker, FromWorker>[] = [];

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-worker-process-'));
  script = path.join(folder, 'worker.js');
  writeFileSync(script, WORKER_SCRIPT);
});
afterEach(async () => {
  for (const worker of started.splice(0)) {
    worker.kill('the test is over');
    await worker.exited;
  }
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function startWorker(options: Partial<WorkerProcessOptions> = {}, mode = 'normal') {
  const log: string[] = [];
  const worker = new WorkerProcess<ToWorker, FromWorker>({
    name: 'home section worker #1',
    launch: { file: process.execPath, args: [script, mode], env: {} },
    maxMessageBytes: 64 * 1024,
    memoryLimitMb: 1024,
    startMs: 30_000,
    log: linesLogger((line) => log.push(line)),
    ...options,
  });
  started.push(worker);
  return { worker, log };
}

const PATIENT = { answerWithinMs: 30_000, killAfterMs: 60_000 };

/** Whether a process is there (not ended, not a zombie). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function ownRssKb(pid: number): number {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

describe('questions and answers', () => {
  test('a worker is ready once it says so, and each question gets its own answer by id, whatever their order', async () => {
    const { worker } = startWorker();
    await expect(worker.ready).resolves.toBe(true);
    const slow = worker.ask({ type: 'double', value: 2, delayMs: 300 }, PATIENT);
    const fast = worker.ask({ type: 'double', value: 5 }, PATIENT);
    expect(worker.busy).toBe(true);
    await expect(fast).resolves.toEqual({ type: 'doubled', id: expect.any(Number), value: 10 });
    await expect(slow).resolves.toEqual({ type: 'doubled', id: expect.any(Number), value: 4 });
    expect(worker.busy).toBe(false);
    expect(worker.alive).toBe(true);
  });

  test('an answer not given within answerWithinMs is undefined, and the worker goes on', async () => {
    const { worker } = startWorker();
    await worker.ready;
    await expect(worker.ask({ type: 'ignore' }, { answerWithinMs: 200, killAfterMs: 60_000 })).resolves.toBeUndefined();
    expect(worker.alive).toBe(true);
    await expect(worker.ask({ type: 'double', value: 1 }, PATIENT)).resolves.toMatchObject({ value: 2 });
  });

  test('a question unanswered past killAfterMs gets the worker killed, and exited says why', async () => {
    const { worker } = startWorker();
    await worker.ready;
    const pid = worker.pid!;
    await expect(worker.ask({ type: 'ignore' }, { answerWithinMs: 100, killAfterMs: 500 })).resolves.toBeUndefined();
    await expect(worker.exited).resolves.toBe('did not answer within 0.5 s');
    expect(worker.alive).toBe(false);
    await eventually(() => !running(pid), { what: 'the process ends', withinMs: 30_000 });
  });

  test('a worker killed with a question pending answers it undefined; asked after its end, it answers undefined at once', async () => {
    const { worker } = startWorker();
    await worker.ready;
    const pending = worker.ask({ type: 'ignore' }, PATIENT);
    worker.kill('the test kills it');
    await expect(pending).resolves.toBeUndefined();
    await expect(worker.exited).resolves.toBe('the test kills it');
    await expect(worker.ask({ type: 'double', value: 1 }, PATIENT)).resolves.toBeUndefined();
    expect(worker.busy).toBe(false);
  });

  test('a worker that does not say it is ready within startMs is killed', async () => {
    const { worker } = startWorker({ startMs: 500 }, 'never-ready');
    await expect(worker.ready).resolves.toBe(false);
    await expect(worker.exited).resolves.toBe('did not start within 0.5 s');
  });

  test('a file that does not exist: exited says it could not be started, nothing throws, ready is false', async () => {
    let worker: WorkerProcess<ToWorker, FromWorker> | undefined;
    const log: string[] = [];
    expect(() => {
      worker = new WorkerProcess<ToWorker, FromWorker>({
        name: 'home section worker #1',
        launch: { file: path.join(folder, 'no-such-worker'), args: [], env: {} },
        maxMessageBytes: 1024,
        memoryLimitMb: 1024,
        startMs: 30_000,
        log: linesLogger((line) => log.push(line)),
      });
    }).not.toThrow();
    await expect(worker!.exited).resolves.toMatch(/^could not be started: spawn .*no-such-worker ENOENT$/);
    await expect(worker!.ready).resolves.toBe(false);
    expect(worker!.alive).toBe(false);
    await expect(worker!.ask({ type: 'double', value: 1 }, PATIENT)).resolves.toBeUndefined();
  });
});

describe('what a worker writes to the front server', () => {
  test('5 MB without a newline: the worker is killed before it has written it all', async () => {
    const { worker, log } = startWorker();
    await worker.ready;
    const answer = worker.ask({ type: 'no-newline' }, PATIENT);
    await expect(worker.exited).resolves.toBe('sent a message over 65536 bytes');
    await expect(answer).resolves.toBeUndefined();
    // The worker would print this once the front server had read all of it.
    expect(log.join('\n')).not.toContain('wrote it all');
  });

  test('one JSON line of 5 MB: the worker is killed before it has written it all', async () => {
    const { worker, log } = startWorker();
    await worker.ready;
    const answer = worker.ask({ type: 'huge-line' }, PATIENT);
    await expect(worker.exited).resolves.toBe('sent a message over 65536 bytes');
    await expect(answer).resolves.toBeUndefined();
    expect(log.join('\n')).not.toContain('wrote it all');
  });

  test('a message that is not JSON ends the worker', async () => {
    const { worker } = startWorker();
    await worker.ready;
    void worker.ask({ type: 'not-json' }, PATIENT);
    await expect(worker.exited).resolves.toBe('sent a message that is not JSON');
  });
});

describe('a worker that talks too much', () => {
  test('a flood of small valid messages nobody asked for: killed at the first, and exited says why', async () => {
    const { worker } = startWorker();
    await worker.ready;
    const pending = worker.ask({ type: 'flood' }, PATIENT);
    await expect(worker.exited).resolves.toBe('sent a message it was not asked for');
    await expect(pending).resolves.toBeUndefined();
  });

  test('an answer given twice: the first is the answer, the second ends the worker', async () => {
    const { worker } = startWorker();
    await worker.ready;
    await expect(worker.ask({ type: 'answer-twice' }, PATIENT)).resolves.toMatchObject({ value: 1 });
    await expect(worker.exited).resolves.toBe('sent a message it was not asked for');
  });

  test('a second ready ends the worker', async () => {
    const { worker } = startWorker();
    await worker.ready;
    void worker.ask({ type: 'ready-again' }, PATIENT);
    await expect(worker.exited).resolves.toBe('sent a message it was not asked for');
  });

  test('a flood on its stdout (read, even if not logged): killed once past its allowance', async () => {
    const { worker, log } = startWorker();
    await worker.ready;
    void worker.ask({ type: 'shout' }, PATIENT);
    await expect(worker.exited).resolves.toBe('wrote more than 256 KB to its output at over 64 KB/s');
    expect(log.length).toBeLessThanOrEqual(21);
  });
});

describe('memory', () => {
  test('a worker that takes memory past memoryLimitMb is killed, and the reason names its MB', async () => {
    const { worker } = startWorker({ memoryLimitMb: 150 });
    await worker.ready;
    void worker.ask({ type: 'hog' }, PATIENT);
    await expect(worker.exited).resolves.toMatch(/^used \d+ MB, over its 150 MB$/);
  });

  test('memory taken by a child of the worker counts too: the worker is killed, and its child ends with it', async () => {
    const { worker, log } = startWorker({ memoryLimitMb: 150 });
    await worker.ready;
    // The child answers once it holds its memory, if the worker lives that long.
    void worker.ask({ type: 'child', value: 256 }, PATIENT);
    await expect(worker.exited).resolves.toMatch(/^used \d+ MB, over its 150 MB$/);
    const child = Number(/^home section worker #1: child (\d+)$/.exec(log[0] ?? '')?.[1]);
    expect(child).toBeGreaterThan(0);
    await eventually(() => !running(child), { what: 'the child ends with its parent', withinMs: 30_000 });
  });

  test('treeRssKb sums the resident memory of a process and of the processes under it', async () => {
    const { worker } = startWorker();
    await worker.ready;
    const answer = await worker.ask({ type: 'child', value: 96 }, PATIENT);
    const child = answer!.value!;
    expect(running(child)).toBe(true);
    const workerOnly = ownRssKb(worker.pid!);
    const childOnly = ownRssKb(child);
    expect(childOnly).toBeGreaterThan(96 * 1024);
    expect(workerOnly).toBeLessThan(96 * 1024);
    // Both at once; each may have grown a little meanwhile.
    expect(treeRssKb(worker.pid!)).toBeGreaterThanOrEqual(workerOnly + childOnly - 8 * 1024);
    expect(treeRssKb(child)).toBeLessThan(workerOnly + childOnly);
    worker.kill('done');
    await worker.exited;
    await eventually(() => !running(child), { what: 'the child ends with its parent', withinMs: 30_000 });
  });

  test('treeRssKb of a process that is not there is 0', () => {
    expect(treeRssKb(2 ** 30)).toBe(0);
  });
});

describe('a killed worker', () => {
  test('is no longer heard: an answer it wrote before the kill, still in the pipe, is not taken', async () => {
    const mark = path.join(folder, 'answer-written');
    const { worker } = startWorker({ launch: { file: process.execPath, args: [script], env: { MARK: mark } } });
    await worker.ready;
    const answer = worker.ask({ type: 'answer-then-mark' }, PATIENT);
    // Held here, without a turn of the event loop, until the answer is in the pipe: the kill comes first.
    while (!existsSync(mark)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    worker.kill('killed for its conduct');
    await expect(answer).resolves.toBeUndefined();
  });
});

describe('its CPU budget', () => {
  const BUDGET = { burstSeconds: 0.5, perSecond: 0.05, perQuestion: 0 };

  test('a worker that spins between the questions it answers in time is killed once its budget is spent, measured from /proc; an idle one beside it is not', async () => {
    const idle = startWorker({ cpu: BUDGET });
    const { worker, log } = startWorker({ cpu: BUDGET });
    await Promise.all([worker.ready, idle.worker.ready]);
    await expect(worker.ask({ type: 'spin' }, PATIENT)).resolves.toMatchObject({ type: 'spinning' });
    // No deadline sees it: it answers while it spins.
    await expect(worker.ask({ type: 'double', value: 21 }, { answerWithinMs: 30_000, killAfterMs: 30_000 })).resolves.toMatchObject({ value: 42 });
    await expect(worker.exited).resolves.toBe('used more CPU than its budget (0.5 s at once, 5 % of a core after that)');
    expect(worker.faulted).toBe(true);
    expect(log).toEqual([]);
    expect(idle.worker.alive).toBe(true);
    await expect(idle.worker.ask({ type: 'double', value: 2 }, PATIENT)).resolves.toMatchObject({ value: 4 });
  });

  test("its children's CPU is its own: a worker whose child spins is killed", async () => {
    const { worker } = startWorker({ cpu: BUDGET });
    await worker.ready;
    const answer = await worker.ask({ type: 'spin-child' }, PATIENT);
    const child = answer!.value!;
    await expect(worker.exited).resolves.toMatch(/^used more CPU than its budget/);
    process.kill(child, 'SIGKILL');
  });

  test('treeCpuSeconds reads what the kernel counted for a process and those under it; 0 for one not there', async () => {
    const { worker } = startWorker();
    await worker.ready;
    const child = (await worker.ask({ type: 'spin-child' }, PATIENT))!.value!;
    try {
      await eventually(() => treeCpuSeconds(child) > 0.3, { what: 'the child has spun', withinMs: 30_000 });
      expect(treeCpuSeconds(worker.pid!)).toBeGreaterThanOrEqual(treeCpuSeconds(child));
    } finally {
      process.kill(child, 'SIGKILL');
    }
    expect(treeCpuSeconds(2 ** 30)).toBe(0);
  });

  test('a worker its owner ends has not faulted; one killed at its deadline has', async () => {
    const owned = startWorker();
    await owned.worker.ready;
    owned.worker.kill('replaced');
    await owned.worker.exited;
    expect(owned.worker.faulted).toBe(false);
    const { worker } = startWorker();
    await worker.ready;
    await worker.ask({ type: 'ignore' }, { answerWithinMs: 100, killAfterMs: 300 });
    await expect(worker.exited).resolves.toBe('did not answer within 0.3 s');
    expect(worker.faulted).toBe(true);
  });
});

describe("the worker's own output in the log", () => {
  test('reaches the log prefixed by its name, control characters taken out, 300 characters a line, 20 lines, then one line saying the rest is not logged', async () => {
    const { worker, log } = startWorker();
    await worker.ready;
    await worker.ask({ type: 'print' }, PATIENT);
    await eventually(() => log.includes('home section worker #1: further output not logged'), {
      what: 'the log says the rest is not logged',
      withinMs: 30_000,
    });
    expect(log).toHaveLength(21);
    expect(log.at(-1)).toBe('home section worker #1: further output not logged');
    for (const line of log) {
      expect(line.startsWith('home section worker #1: ')).toBe(true);
      expect(line).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
      expect(line.length - 'home section worker #1: '.length).toBeLessThanOrEqual(300);
    }
    expect(log[0]).toContain('red');
    expect(log[1]).toContain('progress 10%');
    expect(log[1]).toContain('progress 100%');
    expect(log[2]).toMatch(/one.two.three.four/);
    expect(log[3]).toBe(`home section worker #1: ${'x'.repeat(300)}`);
    expect(log[19]).toBe('home section worker #1: line 20');
    expect(log.join('\n')).not.toContain('line 21');
  });

  test('stderr reaches the log too', async () => {
    const { worker, log } = startWorker();
    await worker.ready;
    await worker.ask({ type: 'print-stderr' }, PATIENT);
    await eventually(() => log.length > 0, { what: 'the line reaches the log', withinMs: 30_000 });
    expect(log).toEqual(['home section worker #1: from stderr']);
  });

  test('a line written in two parts is logged once, whole', async () => {
    const { worker, log } = startWorker();
    await worker.ready;
    await worker.ask({ type: 'print-split' }, PATIENT);
    await eventually(() => log.length > 0, { what: 'the line reaches the log', withinMs: 30_000 });
    expect(log).toEqual(['home section worker #1: hello, whole']);
  });
});

describe('under a supervisor', () => {
  function supervise(launch: WorkerProcessOptions['launch']) {
    const log: string[] = [];
    const supervisor = new Supervisor<WorkerProcess<ToWorker, FromWorker>>({
      name: "the home section's worker",
      start: () => {
        const worker = new WorkerProcess<ToWorker, FromWorker>({
          name: 'home section worker',
          launch,
          maxMessageBytes: 1024,
          memoryLimitMb: 1024,
          startMs: 30_000,
          log: linesLogger((line) => log.push(line)),
        });
        started.push(worker);
        return worker;
      },
      log: linesLogger((line) => log.push(line)),
      backoffMs: [50],
    });
    supervisor.want({ key: 'build-1', prepare: () => Promise.resolve(true) });
    return { supervisor, log };
  }

  test('a worker file that is not there: each start is counted as a death, and the plan is set aside, not waited on forever', async () => {
    const { supervisor, log } = supervise({ file: path.join(folder, 'no-such-worker'), args: [], env: {} });
    await supervisor.whenSettled();
    expect(supervisor.quarantinedNow).toBe(true);
    expect(log.at(-1)).toMatch(
      /could not be started: spawn .*no-such-worker ENOENT, 3 times in a row: this build is rendered in the browser only until it changes$/,
    );
    await supervisor.close();
  });

  test('a launch the system refuses at once (spawn throws): logged, retried, then set aside', async () => {
    const { supervisor, log } = supervise({ file: process.execPath, args: [script], env: { BROKEN: 'a\u0000b' } });
    await supervisor.whenSettled();
    expect(supervisor.quarantinedNow).toBe(true);
    expect(log[0]).toMatch(/^the home section's worker could not be started: .*; the browser renders it meanwhile, another worker starts in 0.05 s$/);
    await supervisor.close();
  });

  test('a worker that sends what it was not asked for counts as failing: killed, started again after the wait, set aside after three', async () => {
    const { supervisor, log } = supervise({ file: process.execPath, args: [script, 'chatty'], env: {} });
    await eventually(() => supervisor.quarantinedNow, { what: 'set aside', withinMs: 30_000 });
    expect(
      log.filter((line) =>
        line.startsWith("the home section's worker sent a message it was not asked for; the browser renders it meanwhile, another worker starts in 0.05 s"),
      ),
    ).toHaveLength(2);
    expect(log).toContain(
      "the home section's worker sent a message it was not asked for, 3 times in a row: this build is rendered in the browser only until it changes",
    );
    await supervisor.close();
  });

  test('a working worker goes live, answers, and close() ends it', async () => {
    const { supervisor } = supervise({ file: process.execPath, args: [script], env: {} });
    await supervisor.whenSettled();
    const worker = supervisor.worker!;
    await expect(worker.ask({ type: 'double', value: 21 }, PATIENT)).resolves.toMatchObject({ value: 42 });
    await supervisor.close();
    expect(worker.alive).toBe(false);
    expect(running(worker.pid!)).toBe(false);
  });
});
