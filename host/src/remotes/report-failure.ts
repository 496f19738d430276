import type { SectionId } from '@portico/contract/sections';
import type { FailureDetail } from './classify-failure';

/** The event a section's failure dispatches on `window`, for monitoring scripts and tests. */
export const REMOTE_ERROR_EVENT = 'portico:remote-error';

export interface RemoteFailure extends FailureDetail {
  section: SectionId;
  /** The Module Federation name of the section's remote, e.g. `portico_contact`. */
  remote: string;
}

declare global {
  interface WindowEventMap {
    [REMOTE_ERROR_EVENT]: CustomEvent<RemoteFailure>;
  }
}

/**
 * Tells the operator, once per failure: one console line with the remote, the
 * URL, the stage and the cause, and the same details as a
 * `portico:remote-error` event on window.
 */
export function reportFailure(failure: RemoteFailure): void {
  const { section, remote, stage, url, cause } = failure;
  console.error(`Portico: the ${section} section (remote ${remote}) failed at the ${stage} stage: ${url} ${cause}`);
  window.dispatchEvent(new CustomEvent(REMOTE_ERROR_EVENT, { detail: { section, remote, stage, url, cause, transient: failure.transient } }));
}
