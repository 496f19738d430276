import { CompressionLanes, PageCosts, sectionsOverBudget } from '../page-budget';

// The page budget's arithmetic, on its own: what a page costs after its
// parts arrive, and which sections are left to the browser so that it is
// ready in time. Against the real server: query-flood.test.ts.

const KB = 1024;

describe('sectionsOverBudget', () => {
  const cost = (bytes: number) => bytes / KB; // 1 ms per KB

  test('a page that fits keeps every section', () => {
    expect(
      sectionsOverBudget(
        40 * KB,
        [
          { section: 'home', bytes: 100 * KB },
          { section: 'about', bytes: 100 * KB },
        ],
        400,
        cost,
      ),
    ).toEqual(new Set());
  });

  test('a page that would pass its deadline leaves the largest sections to the browser until the rest fits', () => {
    const parts = [
      { section: 'home', bytes: 250 * KB },
      { section: 'about', bytes: 20 * KB },
      { section: 'contact', bytes: 240 * KB },
    ] as const;
    expect(sectionsOverBudget(40 * KB, parts, 400, cost)).toEqual(new Set(['home']));
    expect(sectionsOverBudget(40 * KB, parts, 100, cost)).toEqual(new Set(['home', 'contact']));
  });

  test('with no time left every section is left out, never the page around them', () => {
    expect(sectionsOverBudget(40 * KB, [{ section: 'home', bytes: KB }], -5, cost)).toEqual(new Set(['home']));
  });
});

describe('PageCosts', () => {
  test('learns the cost per KB from the pages measured, the newest weighing most; small pages are not measured', () => {
    const costs = new PageCosts(2);
    const first = costs.estimate(512 * KB, 'br');
    costs.note('br', 512 * KB, 2000);
    expect(costs.estimate(512 * KB, 'br')).toBeGreaterThan(first);
    for (let page = 0; page < 40; page += 1) costs.note('br', 512 * KB, 51.2);
    expect(costs.estimate(512 * KB, 'br')).toBeCloseTo(51.2 + costs.estimate(512 * KB, 'identity'), 0);
    const learnt = costs.estimate(512 * KB, 'br');
    costs.note('br', 4 * KB, 1000);
    expect(costs.estimate(512 * KB, 'br')).toBe(learnt);
  });

  test('a page waits for the bytes queued before it, shared among the lanes; identity is composition only', () => {
    const costs = new PageCosts(2);
    for (let page = 0; page < 40; page += 1) costs.note('gzip', 100 * KB, 10);
    const alone = costs.estimate(100 * KB, 'gzip');
    expect(costs.estimate(100 * KB, 'gzip', 400 * KB)).toBeCloseTo(alone + 20, 0);
    expect(costs.estimate(100 * KB, 'identity', 400 * KB)).toBeLessThan(alone - 9);
  });
});

test('CompressionLanes runs two at a time, in the order given, and counts the bytes not yet compressed', async () => {
  const lanes = new CompressionLanes(2);
  const started: number[] = [];
  const finish = new Map<number, () => void>();
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  const job = (index: number) =>
    lanes.run(
      10,
      () =>
        new Promise<void>((resolve) => {
          started.push(index);
          finish.set(index, resolve);
        }),
    );
  const jobs = [0, 1, 2].map(job);
  await flush();
  expect(started).toEqual([0, 1]);
  expect(lanes.queuedBytes).toBe(30);
  finish.get(0)!();
  jobs.push(job(3));
  await flush();
  expect(started).toEqual([0, 1, 2]);
  finish.get(1)!();
  await flush();
  expect(started).toEqual([0, 1, 2, 3]);
  finish.get(2)!();
  finish.get(3)!();
  await Promise.all(jobs);
  expect(lanes.queuedBytes).toBe(0);
});
