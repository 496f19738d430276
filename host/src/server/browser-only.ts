/**
 * React's mark of an error that asks for a boundary to be rendered in the
 * browser, not a failure: React 19.3's server writes such a boundary with an
 * empty digest, and the hydrating browser then renders it without reporting
 * a recoverable error (#419). It is the mark React's own `browser()` (not yet
 * in a stable release) puts on the error it throws.
 */
const REACT_RECOVERABLE = Symbol.for('react.recoverable');

/**
 * A section the server leaves to the browser, and why: thrown inside its
 * Suspense boundary, or given to `abort()` for whatever is still pending.
 */
export class LeftToBrowser extends Error {
  constructor(readonly reason: string) {
    super(`left to the browser: ${reason}`);
    Object.defineProperty(this, REACT_RECOVERABLE, { value: true });
  }
}
