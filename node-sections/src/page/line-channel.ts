/**
 * The channel between the front server and its workers: one JSON document
 * per line over a pipe (file descriptor 3 of the worker). Not Node's own IPC
 * channel, which reads a message of any size: a worker that runs a section's
 * code may write anything, so the reading side caps each message and stops
 * reading at the first one over the cap.
 */
import type { Duplex } from 'node:stream';

/** The worker's end of the channel. */
export const CHANNEL_FD = 3;

export interface LineReaderOptions {
  /** A line longer than this many bytes ends the channel (`onOverflow`). */
  maxBytes: number;
  onMessage: (message: unknown) => void;
  /** A line over the cap, or one that is not JSON. Nothing more is read. */
  onFault: (reason: string) => void;
}

/** Reads `stream` as JSON lines, each within the cap. */
export function readLines(stream: Duplex, { maxBytes, onMessage, onFault }: LineReaderOptions): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let broken = false;
  const fault = (reason: string) => {
    broken = true;
    pending = [];
    stream.removeAllListeners('data');
    stream.on('data', () => undefined);
    onFault(reason);
  };
  stream.on('data', (chunk: Buffer) => {
    if (broken) return;
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, newline);
      if (pendingBytes + part.length > maxBytes) return fault(`sent a message over ${maxBytes} bytes`);
      const line = Buffer.concat([...pending, part]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        return fault('sent a message that is not JSON');
      }
      onMessage(message);
      if (broken) return;
    }
    const rest = chunk.subarray(start);
    if (pendingBytes + rest.length > maxBytes) return fault(`sent a message over ${maxBytes} bytes`);
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  });
}

/** Writes one message as one line (JSON escapes every newline inside strings). */
export function writeLine(stream: Duplex, message: unknown): void {
  stream.write(`${JSON.stringify(message)}\n`);
}
