import type { RemoteFailure } from './report-failure';
/** Why a section did not load; already reported (console and event) when thrown. */
export declare class SectionLoadError extends Error {
    readonly failure: RemoteFailure;
    constructor(failure: RemoteFailure);
}
