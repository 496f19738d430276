import type { SectionId } from '@portico/shared-config';
import type { FailureDetail } from './classify-failure';
/** The event a section's failure dispatches on `window`, for monitoring scripts and tests. */
export declare const REMOTE_ERROR_EVENT = "portico:remote-error";
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
export declare function reportFailure(failure: RemoteFailure): void;
