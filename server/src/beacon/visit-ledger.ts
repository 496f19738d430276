import type { HealthNote } from '@portico/contract/beacon';

/** The window pages served and visit ids issued are counted in, per release set, on each server. */
const VISIT_WINDOW_MS = 10 * 60_000;

/**
 * Ids a server may issue per release set beyond the pages it served in the
 * current and the previous window: a balancer may send a page's request for
 * its id to another server than the one that served the page. Over a
 * balancer's spread the servers' pages and ids even out, within a few
 * requests plus a share that shrinks as traffic grows (a random spread's
 * difference grows as the square root of the visits): 5, and a tenth of
 * the pages. An outsider gets that many ids per release set and window from
 * a server without fetching a page for each.
 */
export const VISIT_ID_SLACK = 5;
const VISIT_ID_SLACK_SHARE = 0.1;

/** Release sets tracked at once: the cohorts' few sets, and the last ones before an activation, are far fewer. */
const MOST_KEYS = 1000;

/** The key of a release set (the releases a page was served): `about=about-2 contact=contact-9`, each section with one, by id. */
export const releaseSetKey = (releases: HealthNote['releases']) =>
  Object.keys(releases)
    .filter((id) => releases[id] !== undefined)
    .sort()
    .map((id) => `${id}=${releases[id]}`)
    .join(' ');

interface Tally {
  window: number;
  served: [previous: number, current: number];
  issued: [previous: number, current: number];
}

export interface VisitLedgerLimits {
  windowMs: number;
  slack: number;
  slackShare: number;
  keys: number;
}

/**
 * Each server's count of the pages it served and the visit ids it issued,
 * per release set and window (this one and the one before): an id is
 * issued only while the ids of the two windows stay under their pages plus
 * a small slack, so reports cannot outnumber pages served by more than it.
 * In memory: release sets and counts, nothing of any visitor.
 */
export class VisitLedger {
  private readonly tallies = new Map<string, Tally>();
  private readonly limits: VisitLedgerLimits;

  constructor(limits: Partial<VisitLedgerLimits> = {}) {
    this.limits = { windowMs: VISIT_WINDOW_MS, slack: VISIT_ID_SLACK, slackShare: VISIT_ID_SLACK_SHARE, keys: MOST_KEYS, ...limits };
  }

  /** The tally of `key` moved to the window `now` is in; undefined when too many sets are tracked to start another. */
  private tally(key: string, now: number): Tally | undefined {
    const window = Math.floor(now / this.limits.windowMs);
    let tally = this.tallies.get(key);
    if (!tally) {
      if (this.tallies.size >= this.limits.keys) {
        for (const [other, known] of this.tallies) if (known.window < window - 1) this.tallies.delete(other);
        if (this.tallies.size >= this.limits.keys) return undefined;
      }
      tally = { window, served: [0, 0], issued: [0, 0] };
      this.tallies.set(key, tally);
    }
    if (tally.window !== window) {
      const next = tally.window === window - 1;
      tally.served = [next ? tally.served[1] : 0, 0];
      tally.issued = [next ? tally.issued[1] : 0, 0];
      tally.window = window;
    }
    return tally;
  }

  /** A page of this release set was served (a 200 or a 304). */
  served(key: string, now = Date.now()): void {
    const tally = this.tally(key, now);
    if (tally) tally.served[1] += 1;
  }

  /** Whether one more id of this release set may be issued now; counts it if so. */
  issue(key: string, now = Date.now()): boolean {
    const tally = this.tally(key, now);
    const pages = tally ? tally.served[0] + tally.served[1] : 0;
    const issued = tally ? tally.issued[0] + tally.issued[1] : 0;
    if (!tally || issued >= Math.floor(pages * (1 + this.limits.slackShare)) + this.limits.slack) return false;
    tally.issued[1] += 1;
    return true;
  }

  /** When the current window ends: how long a refused request should wait. */
  retryAfterMs(now = Date.now()): number {
    return this.limits.windowMs - (now % this.limits.windowMs);
  }

  /** How many release sets are tracked now. */
  get size(): number {
    return this.tallies.size;
  }
}
