import type { HealthStore, TakenReport } from '@portico/releases';
import type { Logger } from '@portico/platform/logging';

/** The part of the health store the beacon writes to. */
export type HealthRecorder = Pick<HealthStore, 'recordReports'>;

/**
 * The reports taken and not yet in the database: added to it a batch at a
 * time (one flush at once), kept to try again while the database is away,
 * up to `pendingReports`; past that, dropped and counted for the log.
 */
export class ReportQueue {
  private pending: TakenReport[] = [];
  private dropped = 0;
  private failing = false;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly pendingReports: number,
    private readonly store: () => HealthRecorder | undefined,
    private readonly log: Logger,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  keep(reports: readonly TakenReport[]): void {
    const room = Math.max(0, this.pendingReports - this.pending.length);
    this.pending.push(...reports.slice(0, room));
    this.dropped += reports.length - Math.min(room, reports.length);
  }

  /** Adds what is pending to the database; a flush under way is joined, not doubled. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const store = this.store();
    if (!store || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await store.recordReports(batch);
      if (this.failing) this.log.info('beacon: the health store takes counts again');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.log.error(`beacon: the health store is unavailable, keeping the reports to try again: ${(error as Error).message}`);
      this.failing = true;
      this.keep(batch);
    }
    if (this.dropped > 0) {
      this.log.warn(`beacon: ${this.dropped} report(s) dropped: more than ${this.pendingReports} waited for the database`);
      this.dropped = 0;
    }
  }
}
