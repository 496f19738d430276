import { Socket } from 'node:net';
import { CHANNEL_FD, readLines, writeLine } from '@portico/node-sections/channel';

/** Requests carry a section's node build (at most 2 MB) and the page template. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/**
 * A worker's end of its channel to the front server (file descriptor 3,
 * JSON lines). When the front server goes, the channel closes and the
 * worker exits: nothing will ask it for anything again.
 */
export function workerChannel<In, Out>(onMessage: (message: In) => void): (message: Out) => void {
  const socket = new Socket({ fd: CHANNEL_FD, readable: true, writable: true });
  readLines(socket, {
    maxBytes: MAX_REQUEST_BYTES,
    onMessage: (message) => onMessage(message as In),
    onFault: () => process.exit(1),
  });
  socket.on('close', () => process.exit(0));
  socket.on('error', () => process.exit(0));
  return (message) => writeLine(socket, message);
}
