import { LRUCache } from 'lru-cache';

/**
 * Failed authentications per client address, in this process's memory: a
 * token is 32 random bytes, so this is not what keeps one from being
 * guessed; it slows a script that tries tokens (or a CI job with a stale
 * one), and shows up in the log. It holds back bad tokens only: a request
 * with a valid token is never refused by it, whoever shares its address.
 */
export class FailedAuthLimit {
  /**
   * By address, bounded by `addresses` so a flood of addresses cannot grow it
   * for ever: the least recently seen (failed, or asked about) forgotten
   * first, so an address held back that keeps trying stays held back.
   */
  private readonly failures: LRUCache<string, number[]>;

  constructor(
    readonly max = 10,
    readonly windowMs = 60_000,
    /** Addresses tracked at most. */
    addresses = 10_000,
  ) {
    this.failures = new LRUCache({ max: addresses });
  }

  /** Seconds until `address` may try again, or undefined when it may now. */
  retryAfter(address: string, now = Date.now()): number | undefined {
    const recent = this.recent(address, now);
    if (recent.length < this.max) return undefined;
    return Math.max(1, Math.ceil((recent[recent.length - this.max]! + this.windowMs - now) / 1000));
  }

  fail(address: string, now = Date.now()): void {
    const recent = this.recent(address, now);
    recent.push(now);
    this.failures.set(address, recent.slice(-this.max));
  }

  private recent(address: string, now: number): number[] {
    const times = (this.failures.get(address) ?? []).filter((at) => at > now - this.windowMs);
    if (times.length === 0) this.failures.delete(address);
    return times;
  }
}
