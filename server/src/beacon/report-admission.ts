import type { BeaconLimits } from './beacon-endpoint';

/** Entries of a Map kept in insertion order with one lifetime each: the oldest are first, so expiry sweeps from the front. */
function sweep<V extends { until: number }>(map: Map<string, V>, now: number): void {
  for (const [key, value] of map) {
    if (value.until > now) return;
    map.delete(key);
  }
}

/**
 * Which reports count on this server: a visit id once (a report sent twice,
 * hidden then pagehide, is dropped here; every server together counts it
 * once through the database), and at most `perNetwork` per network and
 * window. Both are remembered in memory only, each for its window at most,
 * and bounded in number.
 */
export class ReportAdmission {
  private readonly networks = new Map<string, { until: number; count: number }>();
  private readonly nonces = new Map<string, { until: number }>();
  /** Reports refused by the per-network cap since last taken (for the log). */
  private overCap = 0;

  constructor(private readonly limits: Pick<BeaconLimits, 'perNetwork' | 'windowMs' | 'networks' | 'nonces' | 'nonceMs'>) {}

  /** Whether a report of visit id `nonce` from `network` counts now; if so, both are remembered. */
  admit(nonce: string, network: string, now: number): boolean {
    this.sweep(now);
    if (this.nonces.has(nonce)) return false;
    if (!this.admitNetwork(network, now)) return false;
    if (this.nonces.size >= this.limits.nonces) this.nonces.delete(this.nonces.keys().next().value!);
    this.nonces.set(nonce, { until: now + this.limits.nonceMs });
    return true;
  }

  private admitNetwork(network: string, now: number): boolean {
    const known = this.networks.get(network);
    if (known) {
      if (known.count >= this.limits.perNetwork) {
        this.overCap++;
        return false;
      }
      known.count++;
      return true;
    }
    // Full of live windows: new sources wait, rather than an attacker with many networks evicting the ones being capped.
    if (this.networks.size >= this.limits.networks) {
      this.overCap++;
      return false;
    }
    this.networks.set(network, { until: now + this.limits.windowMs, count: 1 });
    return true;
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
