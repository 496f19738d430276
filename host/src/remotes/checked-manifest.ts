import type { IslandScript } from '@portico/contract/manifest';
import type { PageStylesheet } from '@portico/contract/section-styles';
import type { FailureStage } from './classify-failure';

/** How far a remote's load has got (for the stage of a time-out). */
export interface LoadProgress {
  stage: FailureStage;
}

/** A manifest the loader fetched, read and checked: its bytes (what the runtime parses), its scripts and their hashes. */
export interface CheckedManifest {
  bytes: Uint8Array<ArrayBuffer>;
  files: readonly string[];
  hashes: ReadonlyMap<string, string>;
  /** The section's stylesheets as the page links them: scoped copies from the page's origin. */
  stylesheets: readonly PageStylesheet[];
  /** Its island script, when its build has one (what the islands' loader runs). */
  island?: IslandScript;
}
