import type { HealthNote } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import { CONFIG_BASELINE, signVisitId, VISIT_ID_MS, type ServedCanary, type ServedState } from '@portico/releases';
import { releaseSetKey, VisitLedger, type VisitLedgerLimits } from './visit-ledger';

/** The canary a section's report counts for: the one its id names, still running here, and one of its two releases. */
export function canaryOf(served: ServedState | undefined, section: SectionId, canaryId: number | undefined, release: string): ServedCanary | undefined {
  const canary = served?.canaries[section];
  if (!canary || canary.id !== canaryId) return undefined;
  // With no active release, the visits outside the cohort ran config.json's URL: the baseline it is judged against.
  return release === canary.release.id || release === (served?.active[section]?.id ?? CONFIG_BASELINE) ? canary : undefined;
}

export interface VisitIssuerOptions {
  /** The database's shared secret (ReleaseStore.previewSecret). */
  secret: () => Promise<Buffer | undefined>;
  /** Whether the store is open: the secret is read only then. */
  storeOpen: () => boolean;
  limits?: Partial<VisitLedgerLimits>;
}

/**
 * Visit ids, issued within VisitLedger's count of the pages served: with a
 * page (its answer's VISIT_TIMING entry) or when the page asks (VISIT_PATH),
 * each signed over the page's releases and the canaries running here for
 * them, and short-lived (VISIT_ID_MS).
 */
export class VisitIssuer {
  private readonly ledger: VisitLedger;
  private secret: Buffer | undefined;
  private reading: Promise<Buffer | undefined> | undefined;

  constructor(private readonly options: VisitIssuerOptions) {
    this.ledger = new VisitLedger(options.limits);
  }

  /** The secret once read; undefined before. */
  get key(): Buffer | undefined {
    return this.secret;
  }

  /** The store's secret, read once the store is open (undefined until then): one read at a time. */
  async readKey(): Promise<Buffer | undefined> {
    if (this.secret || !this.options.storeOpen()) return this.secret;
    this.reading ??= this.options
      .secret()
      .catch(() => undefined)
      .finally(() => (this.reading = undefined));
    this.secret ??= await this.reading;
    return this.secret;
  }

  /**
   * A page of `releases` was served: one more id may be issued for them.
   * With `withVisit`, that id now, for the page's answer (undefined while
   * the store is not open, or when the release set has spent its ids).
   */
  async pageServed(releases: HealthNote['releases'], { served, withVisit }: { served: ServedState; withVisit: boolean }): Promise<string | undefined> {
    const now = Date.now();
    this.ledger.served(releaseSetKey(releases), now);
    // The page waits for this: once the secret is read, no await.
    if (!withVisit || !(this.secret ?? (await this.readKey()))) return undefined;
    return this.issue(releases, served, now);
  }

  /** An id for a page of `releases` if the ledger allows one more now (the key read already); undefined if not. */
  issue(releases: HealthNote['releases'], served: ServedState | undefined, now: number): string | undefined {
    if (!this.secret || !this.ledger.issue(releaseSetKey(releases), now)) return undefined;
    const canaries: Partial<Record<SectionId, number>> = {};
    for (const section of Object.keys(releases) as SectionId[]) {
      const running = canaryOf(served, section, served?.canaries[section]?.id, releases[section]!);
      if (running) canaries[section] = running.id;
    }
    return signVisitId(this.secret, { releases, canaries }, new Date(now + VISIT_ID_MS));
  }

  /** When the ledger's window ends: how long a refused request should wait. */
  retryAfterMs(now: number): number {
    return this.ledger.retryAfterMs(now);
  }
}
