import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RenderWorkers } from '../render-workers';

/** A worker that speaks the protocol (render/src/page/worker-protocol.ts); `stubborn` ignores SIGTERM. */
const fakeWorker = (stubborn: boolean) => `
${stubborn ? "process.on('SIGTERM', () => {});" : ''}
process.on('message', (message) => {
  if (message.type === 'warm') process.send({ type: 'warmed', id: message.id });
  if (message.type === 'render') process.send({ type: 'page', id: message.id, html: '<p>pid ' + process.pid + '</p>', sections: {}, renderMs: 1 });
});
process.send({ type: 'ready' });
`;

const folder = mkdtempSync(path.join(tmpdir(), 'portico-render-workers-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function workersOf(script: string) {
  const workerFile = path.join(folder, `${script.length}-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(workerFile, script);
  const live: (number | undefined)[] = [];
  const workers = new RenderWorkers({ workerFile, heapMb: 64, log: () => undefined, onLive: (generation) => live.push(generation) }, () =>
    Promise.resolve([]),
  );
  return { workers, live };
}

/** Whether a process of that id exists (a zombie, exited but not reaped, counts). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe('each renewal ends the worker it replaces', () => {
  test('after ten renewals in a row only the live worker is running, and it renders', async () => {
    const { workers, live } = workersOf(fakeWorker(false));
    try {
      const pids: number[] = [];
      for (let renewal = 1; renewal <= 10; renewal += 1) {
        await workers.renew();
        pids.push(workers.pid!);
      }
      expect(new Set(pids).size).toBe(10);
      expect(live).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const older = pids.slice(0, -1);
      // Each old worker is ended once it has no request left, and reaped (no zombie keeps its id).
      expect(await until(() => older.every((pid) => !running(pid)), 5000)).toBe(true);
      expect(running(pids.at(-1)!)).toBe(true);
      const page = await workers.render({} as never, 2000);
      expect(page).toMatchObject({ html: `<p>pid ${pids.at(-1)!}</p>`, generation: 10 });
    } finally {
      await workers.close();
    }
    expect(live.at(-1)).toBeUndefined();
  });

  test('a worker that ignores SIGTERM is killed', async () => {
    const { workers } = workersOf(fakeWorker(true));
    try {
      await workers.renew();
      const first = workers.pid!;
      await workers.renew();
      expect(workers.pid).not.toBe(first);
      expect(await until(() => !running(first), 6000)).toBe(true);
    } finally {
      await workers.close();
    }
  }, 10_000);

  test('close() ends the live worker too', async () => {
    const { workers } = workersOf(fakeWorker(false));
    await workers.renew();
    const pid = workers.pid!;
    await workers.close();
    expect(workers.pid).toBeUndefined();
    expect(await until(() => !running(pid), 2000)).toBe(true);
  });
});
