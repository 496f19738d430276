import type { SectionId } from '@portico/contract/sections';
import { HttpRefusal } from '@portico/platform/http';
import type { Logger } from '@portico/platform/logging';
import type { ReleaseStore } from '../store/release-store';
import { RefusedPublishLimit, type HeldBackRun } from './refused-publish-limit';

/**
 * The publish route's limit on refused publishes per token (RefusedPublishLimit),
 * with its audit: a token over it is answered 429 unchecked, and each run of
 * such publishes is one `publish-refused` entry once it ends (or when the
 * API closes).
 */
export class PublishGate {
  private readonly limit: RefusedPublishLimit;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: ReleaseStore,
    private readonly log: Logger,
    limits: { max: number; windowMs: number } | undefined,
  ) {
    this.limit = new RefusedPublishLimit(limits?.max, limits?.windowMs);
  }

  /** Throws 429 (Retry-After: when the oldest refusal leaves the window) while `token` is over its limit. */
  holdBack(token: string, section: SectionId): void {
    const wait = this.limit.retryAfter(token);
    if (wait === undefined) return;
    const { max, windowMs } = this.limit;
    if (this.limit.heldBack(token, section)) {
      // The token's name (who published), never its secret.
      this.log.warn(
        { token, refused: max, withinMinutes: windowMs / 60_000, waitSeconds: wait },
        "control: a token's publishes are refused unchecked for a while",
      );
      this.summariseWhenEnded(wait);
    }
    throw new HttpRefusal(
      429,
      `the token ${token} had ${max} publishes refused within ${windowMs / 60_000} minutes, so this one was not checked: try again in ${wait} s (the audit log has each refusal's reasons)`,
      {},
      { 'Retry-After': String(wait) },
    );
  }

  /** A publish of `token` refused by its checks (or its origin). */
  refused(token: string): void {
    this.limit.refused(token);
  }

  /** Runs of held-back publishes not yet summed up are written now, not lost. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.audit(this.limit.takeEnded(Date.now(), true));
  }

  private summariseWhenEnded(seconds: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.audit(this.limit.takeEnded());
    }, seconds * 1000);
    timer.unref();
    this.timers.add(timer);
  }

  /** One audit entry per run of publishes held back, with how many there were. */
  private async audit(runs: HeldBackRun[]): Promise<void> {
    for (const run of runs) {
      const [only, ...others] = run.sections;
      const window = `${this.limit.max} refused publishes in ${this.limit.windowMs / 60_000} minutes`;
      await this.store.audit
        .record({
          actor: run.token,
          action: 'publish-refused',
          section: others.length === 0 ? only : null,
          facts: {
            kind: 'publish-held',
            count: run.count,
            sections: [...run.sections],
            from: new Date(run.first).toISOString(),
            to: new Date(run.last).toISOString(),
            limit: { max: this.limit.max, minutes: this.limit.windowMs / 60_000 },
          },
          detail: `${run.count} publish${run.count === 1 ? '' : 'es'} of ${[...run.sections].join(', ')} refused with 429 from ${new Date(run.first).toISOString()} to ${new Date(run.last).toISOString()}, unchecked: the token was over its limit of ${window}`,
        })
        .catch((error: unknown) =>
          this.log.error({ err: error, token: run.token, count: run.count }, 'control: the audit entry of publishes held back cannot be written'),
        );
    }
  }
}
