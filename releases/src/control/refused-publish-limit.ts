import type { SectionId } from '@portico/contract/sections';

/** Refused publishes a token may have in a window before its publishes answer 429. */
const REFUSED_PUBLISHES_MAX = 10;
const REFUSED_PUBLISHES_WINDOW_MS = 10 * 60_000;

/** A run of publishes answered 429 for one token, summed up in one audit entry once it ends. */
export interface HeldBackRun {
  token: string;
  count: number;
  sections: Set<SectionId>;
  /** When the first and the last of them came, in ms. */
  first: number;
  last: number;
  /** When the token may publish again, which ends the run. */
  until: number;
}

/**
 * Refused publishes per token, in this process's memory. Each publish makes
 * the server fetch a whole build and render it in a sandboxed worker, and
 * each refusal is an audit entry: a CI job looping on a broken build (or a
 * token used to probe hosts) would cost both without end. Past `max`
 * refusals in `windowMs`, the token's publishes answer 429 until the oldest
 * leaves the window; those are counted, not audited one by one.
 */
export class RefusedPublishLimit {
  private readonly refusals = new Map<string, number[]>();
  private readonly runs: HeldBackRun[] = [];

  constructor(
    readonly max = REFUSED_PUBLISHES_MAX,
    readonly windowMs = REFUSED_PUBLISHES_WINDOW_MS,
  ) {}

  /** Seconds until `token` may publish again, or undefined when it may now. */
  retryAfter(token: string, now = Date.now()): number | undefined {
    const until = this.until(token, now);
    return until === undefined ? undefined : Math.max(1, Math.ceil((until - now) / 1000));
  }

  /** Notes a publish of `token` refused by its checks (or its origin). */
  refused(token: string, now = Date.now()): void {
    const recent = this.recent(token, now);
    recent.push(now);
    this.refusals.set(token, recent.slice(-this.max));
  }

  /**
   * Counts a publish of `token` answered 429 (call it when `retryAfter`
   * said to wait); true for the first of a run, whose end is then known:
   * `retryAfter` seconds away.
   */
  heldBack(token: string, section: SectionId, now = Date.now()): boolean {
    const open = this.runs.find((run) => run.token === token && run.until > now);
    if (open) {
      open.count += 1;
      open.sections.add(section);
      open.last = now;
      return false;
    }
    this.runs.push({ token, count: 1, sections: new Set([section]), first: now, last: now, until: this.until(token, now) ?? now });
    return true;
  }

  /** The runs that have ended by `now` (every run, with `all`), taken out: each is one audit entry. */
  takeEnded(now = Date.now(), all = false): HeldBackRun[] {
    const ended = this.runs.filter((run) => all || run.until <= now);
    for (const run of ended) this.runs.splice(this.runs.indexOf(run), 1);
    return ended;
  }

  private until(token: string, now: number): number | undefined {
    const recent = this.recent(token, now);
    return recent.length < this.max ? undefined : recent[recent.length - this.max]! + this.windowMs;
  }

  private recent(token: string, now: number): number[] {
    const times = (this.refusals.get(token) ?? []).filter((at) => at > now - this.windowMs);
    if (times.length === 0) this.refusals.delete(token);
    return times;
  }
}
