import { RefusedPublishLimit } from '../refused-publish-limit';

const MINUTE = 60_000;

test('past max refusals in the window a token waits until the oldest leaves it; then one more publish is checked', () => {
  const limit = new RefusedPublishLimit(3, 10 * MINUTE);
  const start = 1_000_000;
  limit.refused('ci', start);
  limit.refused('ci', start + MINUTE);
  expect(limit.retryAfter('ci', start + MINUTE)).toBeUndefined();
  limit.refused('ci', start + 2 * MINUTE);
  expect(limit.retryAfter('ci', start + 2 * MINUTE)).toBe(8 * 60);
  expect(limit.retryAfter('another', start + 2 * MINUTE)).toBeUndefined();
  // The first refusal leaves the window: one publish may be tried, and a refusal of it closes the door again.
  expect(limit.retryAfter('ci', start + 10 * MINUTE + 1)).toBeUndefined();
  limit.refused('ci', start + 10 * MINUTE + 1);
  expect(limit.retryAfter('ci', start + 10 * MINUTE + 1)).toBe(60);
});

test('the publishes held back form runs, one per wait, each taken once it has ended', () => {
  const limit = new RefusedPublishLimit(1, MINUTE);
  limit.refused('ci', 0);
  expect(limit.heldBack('ci', 'contact', 1000)).toBe(true);
  expect(limit.heldBack('ci', 'about', 2000)).toBe(false);
  expect(limit.takeEnded(MINUTE - 1)).toEqual([]);
  limit.refused('ci', MINUTE + 5);
  expect(limit.heldBack('ci', 'contact', MINUTE + 10)).toBe(true);

  const [first, ...others] = limit.takeEnded(MINUTE);
  expect(others).toEqual([]);
  expect(first).toEqual({ token: 'ci', count: 2, sections: new Set(['contact', 'about']), first: 1000, last: 2000, until: MINUTE });
  expect(limit.takeEnded(MINUTE)).toEqual([]);
  // The second run has not ended, but closing takes it all the same.
  expect(limit.takeEnded(MINUTE + 20, true)).toEqual([expect.objectContaining({ count: 1, until: 2 * MINUTE + 5 })]);
});
