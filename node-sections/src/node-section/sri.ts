import { createHash } from 'node:crypto';
import { isSri } from '@portico/contract/manifest';
import { NodeSectionError, type NodeSectionRefusal } from './node-section-error';

/**
 * Throws unless `bytes` hash to `expected`, a Subresource Integrity value.
 * A malformed value fails closed: whoever wrote it wanted a check.
 */
export function assertSri(bytes: Uint8Array, expected: string, refusal: NodeSectionRefusal, what: string): void {
  if (!isSri(expected)) throw new NodeSectionError(refusal, `${what}: "${expected}" is not a sha256, sha384 or sha512 integrity value`);
  const dash = expected.indexOf('-');
  const algorithm = expected.slice(0, dash);
  const actual = createHash(algorithm).update(bytes).digest('base64');
  if (actual !== expected.slice(dash + 1)) {
    throw new NodeSectionError(refusal, `${what} does not match its hash: expected ${expected}, got ${algorithm}-${actual}`);
  }
}
