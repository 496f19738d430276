import type { IncomingMessage } from 'node:http';

/**
 * 5 s to send a body once its headers are in: a real one (a contact message
 * is at most about 21 KB, most under 2 KB) takes well under a second even on
 * a slow mobile link, and 64 KB needs about 13 KB/s. A client that trickles
 * it gets 408 and the connection is closed.
 */
export const BODY_TIME_MS = 5_000;

/**
 * Past the limit the rest of the body is still read (and dropped) up to this
 * much, so the client, still sending, gets the 413 instead of a reset
 * connection; a body declared larger is refused before a byte is read.
 */
export const DRAIN_AT_MOST = 2 * 1024 * 1024;

export interface BodyLimits {
  /** The most bytes kept. */
  limit: number;
  /** How long the body may take once asked for. */
  timeMs: number;
  /** Read and dropped past `limit` up to this (DRAIN_AT_MOST); a body declared over it is refused unread. `limit`: nothing past the limit is read. */
  drainUpTo?: number;
  /** How the answers name the body: `the body`, `the report`. */
  noun?: string;
  /** The 413's words (`the body is over 64 KB` by default). */
  tooLarge?: string;
}

export type BodyResult = { ok: true; text: string } | { ok: false; status: 413 | 408 | 400; error: string };

/**
 * Reads a request body of at most `limit` bytes as strict UTF-8, within
 * `timeMs`: a body declared over `drainUpTo` is refused before a byte is
 * read; one that turns out over the limit is read and dropped up to
 * `drainUpTo` (then no more is listened to), and refused. What is past the
 * limit is never kept.
 */
export function readBody(req: IncomingMessage, options: BodyLimits): Promise<BodyResult> {
  const { limit, timeMs, noun = 'the body' } = options;
  const drainUpTo = Math.max(options.drainUpTo ?? DRAIN_AT_MOST, limit);
  const tooLarge = { ok: false, status: 413, error: options.tooLarge ?? `${noun} is over ${limit / 1024} KB` } as const;
  if (Number(req.headers['content-length']) > drainUpTo) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: BodyResult) => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      resolve(result);
    };
    const timer = setTimeout(() => settle({ ok: false, status: 408, error: `${noun} did not arrive within ${timeMs / 1000} s` }), timeMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      // Nothing more is listened to: the answer closes the connection.
      else if (size > drainUpTo) settle(tooLarge);
    };
    const onEnd = () => {
      if (size > limit) return settle(tooLarge);
      try {
        settle({ ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks)) });
      } catch {
        settle({ ok: false, status: 400, error: `${noun} is not valid UTF-8` });
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.once('error', () => settle({ ok: false, status: 400, error: `${noun} could not be read` }));
  });
}
