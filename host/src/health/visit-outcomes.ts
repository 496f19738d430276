import type { Arrival, FailureClass } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import type { FailureDetail } from '../remotes/classify-failure';

/** How a section arrived on this page load, as the visit report tells it. */
export interface SectionOutcome {
  arrival: Arrival;
  failure?: FailureClass;
}

// One page load's outcomes: module state, like the page itself. Nothing here
// leaves the page except in the visit report.
const outcomes = new Map<SectionId, SectionOutcome>();

/** The class of a failure the loader or a section's render reported, in the report's words. */
export function failureClassOf({ stage, cause, transient }: Pick<FailureDetail, 'stage' | 'cause' | 'transient'>): FailureClass {
  if (/did not load within|timed out/i.test(cause)) return 'timeout';
  if (/integrity|\bpin\b|hash/i.test(cause)) return 'integrity';
  if (stage === 'render') return 'render';
  if (transient || /could not be fetched|network/i.test(cause)) return 'network';
  // A manifest or container that is not what the contract says: the section's code is at fault.
  return 'render';
}

/**
 * The section is on the page: hydrated from the server's HTML (`ssr`) or
 * rendered here (`csr`). A later arrival (Try again) replaces a load
 * failure, never a hydration mismatch: that page load did mismatch.
 */
export function noteArrival(section: SectionId, arrival: Exclude<Arrival, 'failed'>): void {
  if (outcomes.get(section)?.failure === 'hydration') return;
  outcomes.set(section, { arrival });
}

export function noteFailure(section: SectionId, failure: FailureClass): void {
  outcomes.set(section, { arrival: 'failed', failure });
}

export function sectionOutcomes(): ReadonlyMap<SectionId, SectionOutcome> {
  return outcomes;
}

/** For tests: a new page load. */
export function forgetOutcomes(): void {
  outcomes.clear();
}
