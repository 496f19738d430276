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

  it('keeps an address held back while it keeps trying, however many other addresses fail meanwhile', () => {
    const limit = new FailedAuthLimit(1, 60_000, 3);
    limit.fail('198.51.100.7', 0);
    // A flood of addresses, the held one asking again between them (as each of its requests does).
    for (let n = 1; n <= 1000; n++) {
      expect(limit.retryAfter('198.51.100.7', n)).toBeGreaterThan(0);
      limit.fail(`2001:db8:${n.toString(16)}::1`, n);
    }
    expect(limit.retryAfter('198.51.100.7', 1001)).toBeGreaterThan(0);
    // Bounded: the flood's first addresses are forgotten.
    expect(limit.retryAfter('2001:db8:1::1', 1001)).toBeUndefined();
  });
});
