/**
 * What the store refuses, by kind, so the control API answers each with its
 * status (404, 409, 400) and anything else (the database gone) with 503.
 */
export type ReleaseErrorKind = 'not-found' | 'conflict' | 'invalid';

export class ReleaseError extends Error {
  constructor(
    readonly kind: ReleaseErrorKind,
    message: string,
    /** For `invalid`: the request's field that is wrong, when one is. */
    readonly field?: string,
  ) {
    super(message);
  }
}
