/**
 * Turns whatever a failed section load threw (Module Federation's runtime
 * errors, webpack's chunk errors, the browser's fetch errors, a section's own
 * render error) into one plain record for the operator: where it failed, which
 * URL, why, and whether another try could help. Pure, so every mapping is
 * unit-tested without a browser.
 */
/** Where loading stopped: the manifest, the remote's remoteEntry.js, one of its chunks, or its render. */
export type FailureStage = 'manifest' | 'entry' | 'chunk' | 'render';
export interface FailureDetail {
    stage: FailureStage;
    /** The URL that failed, or the manifest URL when nothing more precise is known. */
    url: string;
    /** One plain line for the console and the alert's reason line; never a stack. */
    cause: string;
    /** A network blip or an overloaded server: worth an automatic retry. */
    transient: boolean;
}
export interface FailureContext {
    /** The stage the loader had reached when the error came. */
    stage: FailureStage;
    manifestUrl: string;
}
/** A fault the loader found itself (an HTTP status, a bad manifest), already classified. */
export declare class RemoteFault extends Error {
    readonly detail: FailureDetail;
    constructor(detail: FailureDetail);
}
/** Server answers that may well succeed a moment later. */
export declare function isTransientStatus(status: number): boolean;
interface FederationErrorParts {
    code: string;
    args: Record<string, unknown>;
    /** The error Module Federation wrapped, e.g. `ScriptNetworkError: …`. */
    original: string;
}
/**
 * Module Federation's runtime errors read
 * `[ Federation Runtime ]: <description> #RUNTIME-008\nargs: {json}\n<docs link>\nOriginal Error Message:\n <message>`.
 */
export declare function parseFederationError(message: string): FederationErrorParts | undefined;
/** Classifies one error thrown while loading or rendering a section. */
export declare function classifyFailure(error: unknown, context: FailureContext): FailureDetail;
export {};
