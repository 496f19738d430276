import { Supervisor, type Plan, type Supervised, type SupervisorOptions } from '../supervisor';
import { linesLogger } from '@portico/platform/testing';

// The supervisor keeps one live worker for what should run, whatever its
// workers do: they die while starting, while warming, while live; plans
// change under them. Its workers here are stand-ins the test ends when it
// wants, as a crash or someone's `kill -9` would, and its waits are run on
// fake timers.

/** A worker process as the supervisor sees it: started, ready or not, ended by a kill or by itself. */
class FakeWorker implements Supervised {
  static pids = 1000;
  readonly pid = (FakeWorker.pids += 1);
  alive = true;
  busy = false;
  readonly kills: string[] = [];
  readonly ready: Promise<boolean>;
  readonly exited: Promise<string>;
  private resolveReady!: (ok: boolean) => void;
  private resolveExited!: (reason: string) => void;

  /** `slowToDie`: a kill is only asked for; the process ends when the test calls `die()`. */
  constructor(private readonly slowToDie = false) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
  }

  becomeReady(ok = true): void {
    this.resolveReady(ok);
  }

  /** The process ends (a crash, a kill from outside, or the kill it was sent). */
  die(reason = 'ended by SIGKILL'): void {
    if (!this.alive) return;
    this.alive = false;
    this.resolveReady(false);
    this.resolveExited(reason);
  }

  kill(reason: string): void {
    this.kills.push(reason);
    // As a process: the kill lands a moment later, and its exit reports the reason.
    if (!this.slowToDie) void Promise.resolve().then(() => this.die(reason));
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Lets every promise reaction run, and `ms` of fake time pass. */
const pass = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

const ready: Plan<FakeWorker>['prepare'] = () => Promise.resolve(true);
const plan = (key: string, prepare = ready): Plan<FakeWorker> => ({ key, prepare });

function supervise(options: Partial<SupervisorOptions<FakeWorker>> & { slowToDie?: boolean } = {}) {
  const workers: FakeWorker[] = [];
  const log: string[] = [];
  const live: (FakeWorker | undefined)[] = [];
  const { slowToDie, ...rest } = options;
  const supervisor = new Supervisor<FakeWorker>({
    name: "the home section's worker",
    start: () => {
      const worker = new FakeWorker(slowToDie);
      workers.push(worker);
      return worker;
    },
    log: linesLogger((line) => log.push(line)),
    onLive: (worker) => live.push(worker),
    ...rest,
  });
  /** The newest worker started. */
  const newest = () => workers.at(-1)!;
  return { supervisor, workers, log, live, newest };
}

/** The log's lines other than the starts it announces: the deaths and the plans set aside. */
const deaths = (log: readonly string[]) => log.filter((line) => !/ \d+ started: /.test(line));

/** Whether `promise` has settled by now. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await pass();
  return settled;
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('a plan and its worker', () => {
  test('a plan is live once its worker is ready and prepared, not before', async () => {
    const { supervisor, workers, live, newest } = supervise();
    const preparing = deferred<boolean>();
    const prepared: FakeWorker[] = [];
    supervisor.want(plan('build-1', (worker) => (prepared.push(worker), preparing.promise)));
    expect(workers).toHaveLength(1);
    expect(supervisor.worker).toBeUndefined();
    const settled = supervisor.whenSettled();

    newest().becomeReady();
    await pass();
    expect(prepared).toEqual([newest()]);
    expect(supervisor.worker).toBeUndefined();
    expect(await settledNow(settled)).toBe(false);

    preparing.resolve(true);
    await pass();
    expect(supervisor.worker).toBe(newest());
    expect(supervisor.generation).toBe(1);
    expect(live).toEqual([newest()]);
    expect(await settledNow(settled)).toBe(true);
  });

  test("what a start waits for (whenSettledOrFailed) ends at the plan's first death, not after the restart's backoff; or once live", async () => {
    const { supervisor, newest } = supervise();
    supervisor.want(plan('build-1'));
    const started = supervisor.whenSettledOrFailed();
    expect(await settledNow(started)).toBe(false);
    newest().die('did not answer within 5 s');
    expect(await settledNow(started)).toBe(true);
    // Waited for again, it is the restart that goes live.
    const again = supervisor.whenSettledOrFailed();
    await pass(500);
    expect(await settledNow(again)).toBe(false);
    newest().becomeReady();
    expect(await settledNow(again)).toBe(true);
    await supervisor.close();
  });

  test('a worker that is not ready, or whose prepare says no or throws, never goes live and is killed', async () => {
    for (const fail of ['not ready', 'prepare says no', 'prepare throws'] as const) {
      const { supervisor, newest, live } = supervise();
      supervisor.want(plan('build-1', () => (fail === 'prepare throws' ? Promise.reject(new Error('boom')) : Promise.resolve(false))));
      newest().becomeReady(fail !== 'not ready');
      await pass();
      expect(live).toEqual([]);
      expect(supervisor.worker).toBeUndefined();
      expect(newest().kills).toEqual(['could not be made ready']);
      await supervisor.close();
    }
  });

  test('a new plan key starts a new generation, switches to it once prepared, and ends the old one', async () => {
    const { supervisor, workers, live } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();

    supervisor.want(plan('build-2'));
    expect(workers).toHaveLength(2);
    // The old generation answers until the new one is warm.
    expect(supervisor.worker).toBe(workers[0]);
    workers[1]!.becomeReady();
    await pass();
    expect(supervisor.worker).toBe(workers[1]);
    expect(supervisor.generation).toBe(2);
    expect(live).toEqual([workers[0], workers[1]]);

    await pass(100);
    expect(workers[0]!.kills).toEqual(['replaced']);
    expect(workers[0]!.alive).toBe(false);
    expect(workers[1]!.alive).toBe(true);
  });

  test('a replaced worker still answering is let finish for up to 2 s, then killed', async () => {
    const { supervisor, workers } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    workers[0]!.busy = true;
    supervisor.want(plan('build-2'));
    workers[1]!.becomeReady();
    await pass(1000);
    expect(workers[0]!.kills).toEqual([]);
    await pass(1100);
    expect(workers[0]!.kills).toEqual(['replaced']);
  });

  test('a replaced worker is killed as soon as it has answered', async () => {
    const { supervisor, workers } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    workers[0]!.busy = true;
    supervisor.want(plan('build-2'));
    workers[1]!.becomeReady();
    await pass(500);
    expect(workers[0]!.alive).toBe(true);
    workers[0]!.busy = false;
    await pass(100);
    expect(workers[0]!.kills).toEqual(['replaced']);
  });

  test('the same key again changes nothing', async () => {
    const { supervisor, workers, live } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    supervisor.want(plan('build-1', () => Promise.resolve(false)));
    await pass(60_000);
    expect(workers).toHaveLength(1);
    expect(supervisor.worker).toBe(workers[0]);
    expect(supervisor.generation).toBe(1);
    expect(workers[0]!.kills).toEqual([]);
    expect(live).toEqual([workers[0]]);
  });

  test('the same key again while its worker starts starts no second one', async () => {
    const { supervisor, workers } = supervise();
    supervisor.want(plan('build-1'));
    supervisor.want(plan('build-1'));
    expect(workers).toHaveLength(1);
    workers[0]!.becomeReady();
    await pass();
    expect(supervisor.worker).toBe(workers[0]);
  });

  test('a plan replaced while its worker is starting never goes live', async () => {
    const { supervisor, workers, live } = supervise();
    const preparing = deferred<boolean>();
    supervisor.want(plan('build-1', () => preparing.promise));
    workers[0]!.becomeReady();
    await pass();
    supervisor.want(plan('build-2'));
    expect(workers[0]!.kills).toEqual(['replaced by a newer plan before it was live']);
    // Its prepare ends well, too late.
    preparing.resolve(true);
    workers[1]!.becomeReady();
    await pass();
    expect(live).toEqual([workers[1]]);
    expect(supervisor.worker).toBe(workers[1]);
  });

  test('a plan changed back while the new one warms up: the old worker stays live, the new one never goes live', async () => {
    const { supervisor, workers, live } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    supervisor.want(plan('build-2'));
    supervisor.want(plan('build-1'));
    workers[1]!.becomeReady();
    await pass(60_000);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.alive).toBe(false);
    expect(supervisor.worker).toBe(workers[0]);
    expect(live).toEqual([workers[0]]);
  });

  test('a plan withdrawn while its worker is starting never goes live', async () => {
    const { supervisor, workers, live } = supervise();
    const preparing = deferred<boolean>();
    supervisor.want(plan('build-1', () => preparing.promise));
    workers[0]!.becomeReady();
    await pass();
    supervisor.want(undefined);
    preparing.resolve(true);
    await pass(1000);
    expect(live.filter((worker) => worker !== undefined)).toEqual([]);
    expect(supervisor.worker).toBeUndefined();
    expect(workers[0]!.alive).toBe(false);
  });

  test('want(undefined) retires the live worker', async () => {
    const { supervisor, workers, live } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    supervisor.want(undefined);
    expect(supervisor.worker).toBeUndefined();
    expect(live).toEqual([workers[0], undefined]);
    await pass(100);
    expect(workers[0]!.kills).toEqual(['replaced']);
    await expect(supervisor.whenSettled()).resolves.toBeUndefined();
    await pass(60_000);
    expect(workers).toHaveLength(1);
  });
});

describe('workers that die', () => {
  test('a live worker that dies is replaced after a wait that grows (500, 2000, 8000, 30000 ms, then 30000 again), and the log says so', async () => {
    const { supervisor, workers, log, newest } = supervise({ quarantineAfter: Number.POSITIVE_INFINITY });
    supervisor.want(plan('build-1'));
    newest().becomeReady();
    await pass();
    newest().die();
    await pass();
    for (const wait of [500, 2000, 8000, 30_000, 30_000]) {
      const started = workers.length;
      expect(log.at(-1)).toBe(`the home section's worker ended by SIGKILL; the browser renders it meanwhile, another worker starts in ${wait / 1000} s`);
      await pass(wait - 1);
      expect(workers).toHaveLength(started);
      await pass(1);
      expect(workers).toHaveLength(started + 1);
      // It dies while starting, too: the wait grows on.
      newest().die();
      await pass();
    }
  });

  test('every start after the first says why in the log: a new plan, or the death of the one before', async () => {
    const { supervisor, log, newest } = supervise();
    supervisor.want(plan('build-1'));
    newest().becomeReady();
    await pass();
    expect(log).toEqual([]);
    supervisor.want(plan('build-2'));
    newest().becomeReady();
    await pass();
    newest().die('did not answer within 5 s');
    await pass(500);
    expect(log.filter((line) => line.includes(' started: '))).toEqual([
      "the home section's worker 2 started: its plan changed (other builds to run)",
      "the home section's worker 3 started: the one before did not answer within 5 s",
    ]);
  });

  test.each([
    ['before it is ready', async (worker: FakeWorker) => worker.die()],
    [
      'while it prepares',
      async (worker: FakeWorker, preparing: Deferred<boolean>) => {
        worker.becomeReady();
        await pass();
        worker.die();
        preparing.resolve(false);
      },
    ],
    [
      'in the moment its prepare ends well',
      async (worker: FakeWorker, preparing: Deferred<boolean>) => {
        worker.becomeReady();
        await pass();
        preparing.resolve(true);
        worker.die();
      },
    ],
    [
      'in the moment it says it is ready',
      async (worker: FakeWorker) => {
        worker.becomeReady();
        worker.die();
      },
    ],
    [
      '0.3 s after it appears, its prepare never ending',
      async (worker: FakeWorker) => {
        worker.becomeReady();
        await pass(300);
        worker.die();
      },
    ],
  ])('the live worker killed, then its replacement killed %s: a worker is live again', async (_moment, killReplacement) => {
    const { supervisor, workers, newest } = supervise();
    // The replacement's prepare ends when the test says.
    const preparing = deferred<boolean>();
    supervisor.want(plan('build-1', (worker) => (worker === workers[1] ? preparing.promise : Promise.resolve(true))));
    newest().becomeReady();
    await pass();
    newest().die();
    await pass(500);
    expect(workers).toHaveLength(2);

    await killReplacement(workers[1]!, preparing);
    await pass(2000);
    expect(workers).toHaveLength(3);
    newest().becomeReady();
    await pass();
    expect(supervisor.worker).toBe(workers[2]);
    await expect(supervisor.whenSettled()).resolves.toBeUndefined();
  });

  test('three deaths in a row set the plan aside, and the log says so; no worker starts again until the plan changes, then at once', async () => {
    const { supervisor, workers, log, newest } = supervise();
    supervisor.want(plan('build-1'));
    newest().becomeReady();
    await pass();
    newest().die();
    await pass(500);
    newest().die();
    await pass(2000);
    expect(workers).toHaveLength(3);
    newest().becomeReady();
    await pass();
    newest().die();
    await pass();

    expect(log.at(-1)).toBe("the home section's worker ended by SIGKILL, 3 times in a row: this build is rendered in the browser only until it changes");
    expect(supervisor.quarantinedNow).toBe(true);
    await expect(supervisor.whenSettled()).resolves.toBeUndefined();
    await pass(10 * 60_000);
    supervisor.want(plan('build-1'));
    await pass(10 * 60_000);
    expect(workers).toHaveLength(3);
    expect(supervisor.worker).toBeUndefined();

    supervisor.want(plan('build-2'));
    expect(workers).toHaveLength(4);
    expect(supervisor.quarantinedNow).toBe(false);
    newest().becomeReady();
    await pass();
    expect(supervisor.worker).toBe(workers[3]);
  });

  test('a plan set aside is told to onSetAside once, with its key and the last death', async () => {
    const setAside: [string, string][] = [];
    const { supervisor, newest } = supervise({ onSetAside: (key, reason) => setAside.push([key, reason]) });
    supervisor.want(plan('build-1 build-2'));
    for (const wait of [500, 2000, 0]) {
      newest().becomeReady();
      await pass();
      newest().die();
      await pass(wait);
    }
    expect(setAside).toEqual([['build-1 build-2', 'its worker ended by SIGKILL, 3 times in a row']]);
    supervisor.want(plan('build-1 build-2'));
    await pass(60_000);
    expect(setAside).toHaveLength(1);
  });

  test('a plan set aside while an older generation answers ends that older one too', async () => {
    const { supervisor, workers, newest } = supervise();
    supervisor.want(plan('build-1'));
    newest().becomeReady();
    await pass();
    supervisor.want(plan('build-2'));
    newest().die();
    await pass(500);
    newest().die();
    await pass(2000);
    // The old build answers meanwhile.
    expect(supervisor.worker).toBe(workers[0]);
    newest().die();
    await pass(100);
    expect(supervisor.quarantinedNow).toBe(true);
    expect(supervisor.worker).toBeUndefined();
    expect(workers[0]!.kills).toEqual(['replaced']);
  });

  test('a worker live longer than stableMs before it died had been working: the count starts afresh', async () => {
    for (const [liveMs, setAside] of [
      [9000, true],
      [10_001, false],
    ] as const) {
      const { supervisor, log, newest } = supervise({ stableMs: 10_000 });
      supervisor.want(plan('build-1'));
      newest().die();
      await pass(500);
      newest().die();
      await pass(2000);
      newest().becomeReady();
      await pass(liveMs);
      newest().die();
      await pass();
      expect(supervisor.quarantinedNow).toBe(setAside);
      if (!setAside) expect(log.at(-1)).toMatch(/another worker starts in 0.5 s$/);
      await supervisor.close();
    }
  });

  test('plans that change back and forth while workers start: the workers the supervisor itself ended are not counted as deaths', async () => {
    const { supervisor, workers, log } = supervise();
    supervisor.want(plan('build-1'));
    for (let round = 0; round < 3; round += 1) {
      supervisor.want(plan('build-2'));
      supervisor.want(plan('build-1'));
      await pass();
    }
    expect(supervisor.quarantinedNow).toBe(false);
    expect(deaths(log)).toEqual([]);
    workers.at(-1)!.becomeReady();
    await pass();
    expect(supervisor.worker).toBe(workers.at(-1));
  });

  test('the old generation dying while the new one warms up is not counted against the new plan', async () => {
    const { supervisor, workers, log } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    supervisor.want(plan('build-2'));
    workers[0]!.die();
    await pass();
    expect(deaths(log)).toEqual([]);
    workers[1]!.becomeReady();
    await pass();
    expect(supervisor.worker).toBe(workers[1]);
  });

  test('a start that throws (no process to be had) is a death like another: logged, and tried again after the wait', async () => {
    let refuse = true;
    const started: FakeWorker[] = [];
    const { supervisor, log } = supervise({
      start: () => {
        if (refuse) throw new Error('spawn ENOMEM');
        const worker = new FakeWorker();
        started.push(worker);
        return worker;
      },
    });
    expect(() => supervisor.want(plan('build-1'))).not.toThrow();
    await pass();
    expect(log.at(-1)).toMatch(/^the home section's worker could not be started: spawn ENOMEM; .* another worker starts in 0.5 s$/);
    refuse = false;
    await pass(500);
    expect(started).toHaveLength(1);
    started[0]!.becomeReady();
    await pass();
    expect(supervisor.worker).toBe(started[0]);
  });
});

describe('whenSettled and close', () => {
  test('whenSettled resolves at once with no plan, and waits while a plan has no live worker', async () => {
    const { supervisor, newest } = supervise();
    await expect(supervisor.whenSettled()).resolves.toBeUndefined();
    supervisor.want(plan('build-1'));
    const settled = supervisor.whenSettled();
    expect(await settledNow(settled)).toBe(false);
    newest().becomeReady();
    expect(await settledNow(settled)).toBe(true);
  });

  test('close kills every worker (live, starting, retiring) and resolves only once each has exited', async () => {
    const { supervisor, workers, live } = supervise({ slowToDie: true });
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    workers[0]!.busy = true;
    supervisor.want(plan('build-2'));
    workers[1]!.becomeReady();
    await pass();
    supervisor.want(plan('build-3'));
    // Retiring, live, starting.
    expect(workers).toHaveLength(3);

    const closed = supervisor.close();
    expect(workers.map((worker) => worker.kills.at(-1))).toEqual(['the server is stopping', 'the server is stopping', 'the server is stopping']);
    expect(live.at(-1)).toBeUndefined();
    expect(supervisor.worker).toBeUndefined();
    for (const worker of workers) {
      expect(await settledNow(closed)).toBe(false);
      worker.die();
    }
    expect(await settledNow(closed)).toBe(true);
  });

  test('close also waits for a worker it killed before (replaced before it was live) that has not exited yet', async () => {
    const { supervisor, workers } = supervise({ slowToDie: true });
    supervisor.want(plan('build-1'));
    supervisor.want(plan('build-2'));
    expect(workers[0]!.kills).toEqual(['replaced by a newer plan before it was live']);
    workers[1]!.becomeReady();
    await pass();
    const closed = supervisor.close();
    workers[1]!.die();
    expect(await settledNow(closed)).toBe(false);
    workers[0]!.die();
    expect(await settledNow(closed)).toBe(true);
  });

  test('once closed, a dying worker is not replaced and a new plan starts nothing', async () => {
    const { supervisor, workers } = supervise();
    supervisor.want(plan('build-1'));
    workers[0]!.becomeReady();
    await pass();
    await supervisor.close();
    supervisor.want(plan('build-2'));
    await pass(60_000);
    expect(workers).toHaveLength(1);
    await expect(supervisor.whenSettled()).resolves.toBeUndefined();
  });
});
