import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; text: string } | { ok: false; status: 413 | 408 | 400; error: string };

/**
 * Past the limit the rest of the body is still read (and dropped) up to this
 * much, so the client, still sending, gets the 413 instead of a reset
 * connection; beyond it the connection is cut.
 */
const DRAIN_AT_MOST = 2 * 1024 * 1024;

/**
 * Reads a request body of at most `limit` bytes as strict UTF-8, within
 * `timeMs` of being asked to: a client that sends it slower gets a 408 (and
 * the endpoint closes the connection) instead of holding it open.
 */
export function readBody(req: IncomingMessage, limit: number, timeMs: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => settle({ ok: false, status: 408, error: `the body did not arrive within ${timeMs / 1000} s` }), timeMs);
    const declared = Number(req.headers['content-length']);
    const tooLarge = { ok: false, status: 413, error: `the body is over ${limit / 1024} KB` } as const;
    if (declared > DRAIN_AT_MOST) {
      settle(tooLarge);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_AT_MOST) {
        settle(tooLarge);
        req.destroy();
      }
    });
    req.on('error', () => settle({ ok: false, status: 400, error: 'the body could not be read' }));
    req.on('end', () => {
      if (size > limit) {
        settle(tooLarge);
        return;
      }
      try {
        settle({ ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks)) });
      } catch {
        settle({ ok: false, status: 400, error: 'the body is not valid UTF-8' });
      }
    });
  });
}
