import type { IncomingMessage } from 'node:http';
import type { RequestOriginOf } from '../http/contact-routes';

/**
 * For tests and the test server: a request's origin and address as a client
 * talking to the endpoint directly has them (Host, the socket). Production
 * passes the server's own reading (server/src/request-origin.ts), the one
 * that knows about a trusted proxy.
 */
export const directOrigin: RequestOriginOf = (req: IncomingMessage) => ({
  origin: `http://${req.headers.host ?? 'localhost'}`,
  address: req.socket.remoteAddress ?? 'unknown',
});
