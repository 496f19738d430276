import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; text: string } | { ok: false; status: 413 | 400; error: string };

/**
 * Past the limit the rest of the body is still read (and dropped) up to this
 * much, so the client, still sending, gets the 413 instead of a reset
 * connection; beyond it the connection is cut.
 */
const DRAIN_AT_MOST = 2 * 1024 * 1024;

/** Reads a request body of at most `limit` bytes as strict UTF-8. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    const tooLarge = { ok: false, status: 413, error: `the body is over ${limit / 1024} KB` } as const;
    if (declared > DRAIN_AT_MOST) {
      resolve(tooLarge);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_AT_MOST) {
        resolve(tooLarge);
        req.destroy();
      }
    });
    req.on('error', () => resolve({ ok: false, status: 400, error: 'the body could not be read' }));
    req.on('end', () => {
      if (size > limit) {
        resolve(tooLarge);
        return;
      }
      try {
        resolve({ ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks)) });
      } catch {
        resolve({ ok: false, status: 400, error: 'the body is not valid UTF-8' });
      }
    });
  });
}
