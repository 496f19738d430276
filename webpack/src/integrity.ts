import { createHash } from 'node:crypto';

/** The Subresource Integrity value of some bytes, as browsers check it. */
export function sriOf(content: string | Buffer): string {
  return `sha384-${createHash('sha384').update(content).digest('base64')}`;
}
