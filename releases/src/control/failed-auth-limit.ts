/**
 * Failed authentications per client address, in this process's memory: a
 * token is 32 random bytes, so this is not what keeps one from being
 * guessed; it slows a script that tries tokens (or a CI job with a stale
 * one), and shows up in the log. It holds back bad tokens only: a request
 * with a valid token is never refused by it, whoever shares its address.
 */
export class FailedAuthLimit {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly max = 10,
    readonly windowMs = 60_000,
    /** Addresses tracked at most: past it the oldest is forgotten, so a flood of addresses cannot grow the map for ever. */
    private readonly addresses = 10_000,
  ) {}

  /** Seconds until `address` may try again, or undefined when it may now. */
  retryAfter(address: string, now = Date.now()): number | undefined {
    const recent = this.recent(address, now);
    if (recent.length < this.max) return undefined;
    return Math.max(1, Math.ceil((recent[recent.length - this.max]! + this.windowMs - now) / 1000));
  }

  fail(address: string, now = Date.now()): void {
    const recent = this.recent(address, now);
    recent.push(now);
    // Re-inserted, so the map's order is least recently failed first.
    this.failures.delete(address);
    this.failures.set(address, recent.slice(-this.max));
    if (this.failures.size > this.addresses) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(address: string, now: number): number[] {
    const times = (this.failures.get(address) ?? []).filter((at) => at > now - this.windowMs);
    if (times.length === 0) this.failures.delete(address);
    return times;
  }
}
