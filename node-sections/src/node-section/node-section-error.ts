/**
 * Why a section's node build was refused. The page then leaves that section
 * to the browser, which loads and checks it as it always has.
 */
export type NodeSectionRefusal =
  /** The manifest's bytes do not match config.json's `remoteIntegrity` pin, or the pin is malformed. */
  | 'pin'
  /** The manifest is not JSON, or names no usable node build (`metaData.ssrRemoteEntry`). */
  | 'manifest'
  /** The node build is not on the manifest's origin, or not over http(s). */
  | 'origin'
  /** Not fetched: a network error, a redirect, an HTTP error status. */
  | 'http'
  | 'too-large'
  | 'timeout'
  /** The fetched bytes do not hash to the value the manifest gives. */
  | 'integrity'
  /** Evaluated, but it is not a container, or `init`, `get` or the expose failed. */
  | 'container';

export class NodeSectionError extends Error {
  constructor(
    readonly refusal: NodeSectionRefusal,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'NodeSectionError';
  }
}
