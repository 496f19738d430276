/** Entries of a Map kept in insertion order with one lifetime each: the oldest are first, so expiry sweeps from the front. */
function sweep<V extends { until: number }>(map: Map<string, V>, now: number): void {
  for (const [key, value] of map) {
    if (value.until > now) return;
    map.delete(key);
  }
}

/** What ReportAdmission counts against: BeaconLimits' part of them. */
export interface AdmissionLimits {
  /** Reports counted per network and window; `Infinity` lifts the cap (the bench, never a server). */
  perNetwork: number;
  /** Reports counted per IPv6 /48 and window, over all its /64s (unless given, CLIENTS_PER_BLOCK x perNetwork); `Infinity` lifts it. */
  perBlock: number;
  windowMs: number;
  /** Networks remembered at once (each a few dozen bytes); past it, reports from new networks are not counted until windows end. */
  networks: number;
  /**
   * Visit ids remembered here, and for how long: a report sent twice
   * (hidden, then pagehide) to this server is dropped at once. Every server
   * together counts an id once through the database (HealthStore.recordReports).
   */
  nonces: number;
  nonceMs: number;
}

/**
 * Which reports count on this server: a visit id once (a report sent twice,
 * hidden then pagehide, is dropped here; every server together counts it
 * once through the database), at most `perNetwork` per client (an IPv4
 * address, an IPv6 /64) and window, and at most `perBlock` per IPv6 /48
 * and window over all its /64s. All are remembered in memory only, each for
 * its window at most, and bounded in number.
 */
export class ReportAdmission {
  private readonly networks = new Map<string, { until: number; count: number }>();
  private readonly nonces = new Map<string, { until: number }>();
  /** Reports refused by the per-network cap since last taken (for the log). */
  private overCap = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /**
   * Whether a report of visit id `nonce` from `network` (in IPv6 /48
   * `block`, if any) counts now; if so, all are remembered.
   */
  admit(nonce: string, network: string, now: number, block?: string): boolean {
    this.sweep(now);
    if (this.nonces.has(nonce)) return false;
    // Both windows are checked before either counts: a report refused by its block spends nothing of its /64's budget.
    const units =
      block === undefined
        ? [{ key: network, most: this.limits.perNetwork }]
        : [
            { key: network, most: this.limits.perNetwork },
            // A key no client unit has (theirs end in /64, or are IPv4 or 'unknown').
            { key: `block ${block}`, most: this.limits.perBlock },
          ];
    if (!units.every((unit) => this.room(unit.key, unit.most))) {
      this.overCap++;
      return false;
    }
    for (const unit of units) this.count(unit.key, now);
    if (this.nonces.size >= this.limits.nonces) this.nonces.delete(this.nonces.keys().next().value!);
    this.nonces.set(nonce, { until: now + this.limits.nonceMs });
    return true;
  }

  /** Whether `key` may count one more report: under its cap, or new while there is room to remember it. */
  private room(key: string, most: number): boolean {
    const known = this.networks.get(key);
    // Full of live windows: new sources wait, rather than an attacker with many networks evicting the ones being capped.
    return known ? known.count < most : this.networks.size < this.limits.networks;
  }

  private count(key: string, now: number): void {
    const known = this.networks.get(key);
    if (known) known.count++;
    else this.networks.set(key, { until: now + this.limits.windowMs, count: 1 });
  }

  /** Forgets what its window has ended for. */
  sweep(now: number): void {
    sweep(this.networks, now);
    sweep(this.nonces, now);
  }

  /** The reports refused by the cap since the last call. */
  takeOverCap(): number {
    const count = this.overCap;
    this.overCap = 0;
    return count;
  }

  clear(): void {
    this.networks.clear();
    this.nonces.clear();
  }

  remembered(): { networks: number; nonces: number } {
    return { networks: this.networks.size, nonces: this.nonces.size };
  }
}
