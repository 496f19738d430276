/**
 * How fast a section's manifest may change before the server stops following
 * it (docs/decisions/server-rendering.md, "A manifest that churns is held"):
 * each new version costs a node build and stylesheets fetched, a worker
 * started and warmed, and the pages that inline it made again.
 */
export interface ChurnBound {
  /** This many new versions within `withinMs` are followed; the next one is held. */
  versions: number;
  withinMs: number;
  /** A held manifest unchanged this long is followed again (its latest version served). */
  calmMs: number;
}

/** More than 5 new versions within 10 minutes: held until it is unchanged for 2 minutes. */
export const MANIFEST_CHURN: ChurnBound = { versions: 5, withinMs: 10 * 60_000, calmMs: 2 * 60_000 };

/** What a poll's answer does to the version served: taken (`adopt`), or not (`hold`, or `same`: nothing new); `began` and `released`: a hold began or ended with it. */
export interface ChurnStep {
  step: 'adopt' | 'same' | 'hold';
  began?: true;
  released?: true;
}

/** A manifest held, as the server shows it. */
export interface HeldState {
  /** When it was held (ms since the epoch). */
  since: number;
  /** The versions seen since, the held one's successors (one seen again after another counts again). */
  versionsSince: number;
}

/**
 * One manifest's gate: which of the versions its polls see are served. A
 * version is a hash, or undefined for a manifest gone (unreachable or
 * refused), both being a change the server acts on. The first `versions`
 * changes within `withinMs` are followed; past that the served version is
 * held, whatever the polls see, until they have seen the same version for
 * `calmMs`; then that one is followed (and counts as a change).
 */
export class ChurnGate {
  /** When each change followed within the window was. */
  private changes: number[] = [];
  private held: (HeldState & { seen: string | undefined; seenSince: number }) | undefined;

  constructor(private readonly bound: ChurnBound) {}

  /** The hold now, if any. */
  get state(): HeldState | undefined {
    return this.held && { since: this.held.since, versionsSince: this.held.versionsSince };
  }

  /** A poll at `now` saw `seen` while `served` is served. */
  see(seen: string | undefined, served: string | undefined, now: number): ChurnStep {
    const { held } = this;
    if (held) {
      if (seen !== held.seen) {
        held.seen = seen;
        held.seenSince = now;
        held.versionsSince += 1;
        return { step: 'hold' };
      }
      if (now - held.seenSince < this.bound.calmMs) return { step: 'hold' };
      this.held = undefined;
      if (seen === served) {
        this.changes = [];
        return { step: 'same', released: true };
      }
      this.changes = [now];
      return { step: 'adopt', released: true };
    }
    if (seen === served) return { step: 'same' };
    this.changes = this.changes.filter((at) => now - at < this.bound.withinMs);
    if (this.changes.length >= this.bound.versions) {
      this.held = { since: now, versionsSince: 1, seen, seenSince: now };
      return { step: 'hold', began: true };
    }
    this.changes.push(now);
    return { step: 'adopt' };
  }
}
