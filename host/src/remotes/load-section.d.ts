import { type RemoteLoading, type SectionId, type SectionModule } from '@portico/shared-config';
/**
 * Used where config.json's `remoteLoading` says nothing. The deadline leaves a
 * second of the product's 10 s promise for the page to show the alert.
 */
export declare const DEFAULT_REMOTE_LOADING: RemoteLoading;
export interface LoadSectionOptions extends Partial<RemoteLoading> {
    /** Forget any earlier attempt and load again (Try again). */
    fresh?: boolean;
}
/**
 * Loads the one module a section's remote exposes, from its manifest URL.
 * Transient faults are retried with backoff; everything, retries included,
 * ends by the deadline. A failure is reported once (console and a
 * `portico:remote-error` event) and rejects with a SectionLoadError. Without
 * `fresh` a second call for the same section and URL shares the first load.
 */
export declare function loadSection(section: SectionId, manifestUrl: string | undefined, { fresh, deadlineMs, retries }?: LoadSectionOptions): Promise<SectionModule>;
