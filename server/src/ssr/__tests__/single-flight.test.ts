import { SingleFlight } from '../single-flight';

// What the shell and section pools answer pages from: one render per key at
// a time, kept once made, never waited for past a page's deadline. Run on
// fake timers: the deadlines are the subject.

interface Deferred {
  promise: Promise<string | undefined>;
  resolve: (value: string | undefined) => void;
}
function deferred(): Deferred {
  let resolve!: (value: string | undefined) => void;
  const promise = new Promise<string | undefined>((settle) => (resolve = settle));
  return { promise, resolve };
}

const flights = (keep = true) => new SingleFlight<string>({ maxBytes: 1024, bytesOf: (value) => value.length, keep });
const pass = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

test('pages that miss together cause one render, and each gets its answer', async () => {
  const cache = flights();
  const render = deferred();
  const renders = jest.fn(() => render.promise);
  const pages = [cache.get('k', renders, performance.now() + 400), cache.get('k', renders, performance.now() + 400)];
  render.resolve('<p>html</p>');
  await expect(Promise.all(pages)).resolves.toEqual(['<p>html</p>', '<p>html</p>']);
  expect(renders).toHaveBeenCalledTimes(1);
  expect(cache.cached('k')).toBe('<p>html</p>');
});

test('a page is not kept waiting past its deadline; the render goes on, and the next page gets it from the cache', async () => {
  const cache = flights();
  const render = deferred();
  const page = cache.get('k', () => render.promise, performance.now() + 400);
  await pass(400);
  await expect(page).resolves.toBeUndefined();
  render.resolve('<p>late</p>');
  await pass();
  expect(cache.cached('k')).toBe('<p>late</p>');
});

test('a render under way for longer than the stale bound is not waited for at all, and not started again', async () => {
  const cache = flights();
  const renders = jest.fn(() => deferred().promise);
  void cache.get('k', renders, performance.now() + 400, 400);
  await pass(500);
  // No timer runs from here: only an answer given at once settles it.
  await expect(cache.get('k', renders, performance.now() + 400, 400)).resolves.toBeUndefined();
  expect(renders).toHaveBeenCalledTimes(1);
});

test('no answer is kept as none: the next page asks again', async () => {
  const cache = flights();
  const renders = jest.fn(() => Promise.resolve(undefined));
  await cache.get('k', renders, performance.now() + 400);
  await cache.get('k', renders, performance.now() + 400);
  expect(renders).toHaveBeenCalledTimes(2);
});

test('with keeping off (PORTICO_SSR_CACHE=0) nothing is kept, but a render under way is still shared', async () => {
  const cache = flights(false);
  const render = deferred();
  const renders = jest.fn(() => render.promise);
  const pages = [cache.get('k', renders, performance.now() + 400), cache.get('k', renders, performance.now() + 400)];
  render.resolve('<p>html</p>');
  await Promise.all(pages);
  expect(renders).toHaveBeenCalledTimes(1);
  cache.keep('k', '<p>html</p>');
  expect(cache.cached('k')).toBeUndefined();
});
