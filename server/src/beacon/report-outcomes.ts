/**
 * What became of each visit report, counted since the start for the
 * metrics: counted, or why not. A report is answered 204 whether or not it
 * counted (the page is told nothing), so these are where an operator sees it.
 */
export const REPORT_OUTCOMES = ['accepted', 'refused-early', 'malformed', 'unverified', 'unknown-release', 'repeated-or-over-cap'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** The reports' outcomes, counted where each is decided (a plain number: a report costs an addition), read at a scrape. */
export class ReportOutcomes {
  readonly counts = Object.fromEntries(REPORT_OUTCOMES.map((outcome) => [outcome, 0])) as Record<ReportOutcome, number>;

  count(outcome: ReportOutcome): void {
    this.counts[outcome] += 1;
  }
}
