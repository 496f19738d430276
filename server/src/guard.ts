import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { answerPlain, PLAIN_HEADERS } from './plain-answer';

/** Answers one request; may throw or reject on a fault of the server. */
export type AsyncListener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A request that failed unexpectedly: logged once, answered 500 (or cut, if the answer had begun). */
function failed(req: IncomingMessage, res: ServerResponse, error: unknown, log: (line: string) => void): void {
  const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(`Portico: ${req.method ?? '?'} ${JSON.stringify(req.url)} failed: ${reason}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    answerPlain(req, res, 500, 'Internal server error');
  } catch {
    res.destroy();
  }
}

/**
 * The request listener of every Portico server: whatever one request throws,
 * at once or later, is that request's 500, and the process goes on serving
 * the others.
 */
export function guardRequests(listener: AsyncListener, log: (line: string) => void): RequestListener {
  return (req, res) => {
    let answered: Promise<void>;
    try {
      answered = listener(req, res);
    } catch (error) {
      failed(req, res, error, log);
      return;
    }
    answered.catch((error: unknown) => failed(req, res, error, log));
  };
}

/**
 * What Node's parser refuses before any listener runs (a request line or
 * header it cannot read, too many header bytes, a request too slow): the
 * status Node would send, with our headers, then the connection is closed.
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
