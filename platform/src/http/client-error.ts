import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PLAIN_HEADERS } from './common-headers';

/**
 * What Node's parser refuses before any route runs (a request line or
 * header it cannot read, too many header bytes, a request too slow): the
 * status Node would send, with our headers, then the connection is closed.
 * Both servers answer so (Fastify's clientErrorHandler).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = `${STATUS_CODES[status]}\n`;
  const headers = { ...PLAIN_HEADERS, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  // Closed, not half-closed, once the answer is out: a client still trickling bytes would otherwise keep it.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
