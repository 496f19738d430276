import type { Arrival, FailureClass } from '@portico/contract/beacon';
import type { SectionId } from '@portico/contract/sections';
import type { FailureDetail } from '../remotes/classify-failure';

/** How a section arrived on this page load, as the visit report tells it. */
export interface SectionOutcome {
  arrival: Arrival;
  failure?: FailureClass;
}

/**
 * The event each outcome is told by, on `window`: the page script (which
 * sends the report of a server-rendered page) and the host's script (which
 * hydrates or renders the sections) are two bundles with no module in
 * common at run time, so they meet through the page.
 */
export const SECTION_OUTCOME_EVENT = 'portico:section-outcome';

type OutcomeDetail = SectionOutcome & { section: SectionId };

declare global {
  interface WindowEventMap {
    [SECTION_OUTCOME_EVENT]: CustomEvent<OutcomeDetail>;
  }
}

const tell = (detail: OutcomeDetail) => window.dispatchEvent(new CustomEvent(SECTION_OUTCOME_EVENT, { detail }));

/** The class of a failure the loader or a section's render reported, in the report's words. */
export function failureClassOf({ stage, cause, transient }: Pick<FailureDetail, 'stage' | 'cause' | 'transient'>): FailureClass {
  if (/did not load within|timed out/i.test(cause)) return 'timeout';
  if (/integrity|\bpin\b|hash/i.test(cause)) return 'integrity';
  if (stage === 'render') return 'render';
  if (transient || /could not be fetched|network/i.test(cause)) return 'network';
  // A manifest or container that is not what the contract says: the section's code is at fault.
  return 'render';
}

/** The section is on the page: from the server's HTML (`ssr`, hydrated or static) or rendered here (`csr`). */
export function noteArrival(section: SectionId, arrival: Exclude<Arrival, 'failed'>): void {
  tell({ section, arrival });
}

export function noteFailure(section: SectionId, failure: FailureClass): void {
  tell({ section, arrival: 'failed', failure });
}

/**
 * This page load's outcomes, from now on: each told outcome replaces the
 * section's last, except that a later arrival (Try again) never replaces a
 * hydration mismatch: that page load did mismatch.
 */
export function collectOutcomes(): ReadonlyMap<SectionId, SectionOutcome> {
  const outcomes = new Map<SectionId, SectionOutcome>();
  window.addEventListener(SECTION_OUTCOME_EVENT, ({ detail: { section, arrival, failure } }) => {
    if (arrival !== 'failed' && outcomes.get(section)?.failure === 'hydration') return;
    outcomes.set(section, failure ? { arrival, failure } : { arrival });
  });
  return outcomes;
}
