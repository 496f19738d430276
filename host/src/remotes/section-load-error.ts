import type { RemoteFailure } from './report-failure';

/** Why a section did not load; already reported (console and event) when thrown. */
export class SectionLoadError extends Error {
  constructor(readonly failure: RemoteFailure) {
    super(`the ${failure.section} section failed at the ${failure.stage} stage: ${failure.url} ${failure.cause}`);
    this.name = 'SectionLoadError';
  }
}
