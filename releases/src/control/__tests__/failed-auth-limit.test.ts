import { FailedAuthLimit } from '../failed-auth-limit';

describe('the failed-authentication limit', () => {
  it('holds an address back after `max` failures until the oldest leaves the window, others unaffected', () => {
    const limit = new FailedAuthLimit(3, 60_000);
    for (const at of [0, 10_000, 20_000]) {
      expect(limit.retryAfter('192.0.2.1', at)).toBeUndefined();
      limit.fail('192.0.2.1', at);
    }
    expect(limit.retryAfter('192.0.2.1', 30_000)).toBe(30);
    expect(limit.retryAfter('192.0.2.2', 30_000)).toBeUndefined();
    // The first failure is a minute old: one more try.
    expect(limit.retryAfter('192.0.2.1', 60_001)).toBeUndefined();
  });

  it('forgets the least recently failed address past its capacity', () => {
    const limit = new FailedAuthLimit(1, 60_000, 2);
    limit.fail('a', 0);
    limit.fail('b', 1);
    limit.fail('c', 2);
    expect(limit.retryAfter('a', 3)).toBeUndefined();
    expect(limit.retryAfter('b', 3)).toBe(60);
    expect(limit.retryAfter('c', 3)).toBe(60);
  });
});
