import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port that cannot be listened on: the start stops with this reason. */
export class ListenError extends Error {}

export interface ListenOptions {
  port: number;
  /** One address; undefined: every IPv4 and IPv6 interface (every IPv4 one where IPv6 is switched off). */
  host?: string;
  /** The reason given when the port is taken, e.g. `port 8080 (host) is already in use; …`. */
  taken: (port: number) => string;
  /** The reason given for any other failure. */
  failed: (port: number, error: Error) => string;
}

/**
 * Listens on `port`, resolving with the address once it does. Without a
 * host, on every interface of both families; a machine with IPv6 switched
 * off gets every IPv4 interface instead. A port taken, or any other failure,
 * rejects with a ListenError in the caller's words.
 */
export function listenOn(server: Server, options: ListenOptions): Promise<AddressInfo> {
  const { port, host } = options;
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (host === undefined && error.code === 'EAFNOSUPPORT') {
        server.listen(port, '0.0.0.0');
        return;
      }
      server.off('listening', onListening);
      reject(new ListenError(error.code === 'EADDRINUSE' ? options.taken(port) : options.failed(port, error)));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    };
    server.on('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host: host ?? '::', ipv6Only: false });
  });
}

/** `http://127.0.0.1:8084`, `http://[::1]:8084`: the URL of an address listened on. */
export function urlOf(address: AddressInfo): string {
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Closes a server now: no new connections, the open ones cut. */
export function closeNow(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      server.closeAllConnections();
      return resolve();
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
