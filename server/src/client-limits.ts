import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientNetwork } from '@portico/messages';

/**
 * What one client may hold of the server. Each limit closes the connection
 * when passed; the numbers and why are in docs/decisions.md ("Slow and many
 * clients").
 */
export interface ClientLimits {
  /** From the connection (or the end of the last answer on it) to the end of the request's headers. */
  headersMs: number;
  /** The whole request, headers and body; `/api/contact` holds its body to a shorter time of its own. */
  requestMs: number;
  /** An open connection with no request on it. */
  keepAliveMs: number;
  /** A connection on which no byte moves either way (a download its reader stopped reading). */
  idleMs: number;
  /** Connections open at once from one client (an IPv4 address, an IPv6 /64), over all four ports. */
  connectionsPerClient: number;
}

export const DEFAULT_CLIENT_LIMITS: Readonly<ClientLimits> = {
  headersMs: 10_000,
  requestMs: 20_000,
  keepAliveMs: 5_000,
  idleMs: 30_000,
  connectionsPerClient: 256,
};

/**
 * How often Node checks the header and request times (its default, 30 s,
 * let a slow header live 60 + 30 s). A pass over the open connections per
 * second costs nothing next to serving them.
 */
export const TIMEOUT_CHECK_MS = 1_000;

/** Node's own limits, on one server: it answers 408 (see answerClientError) or drops the connection. */
export function applyTimeouts(server: Server, limits: ClientLimits): void {
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = limits.requestMs;
  server.keepAliveTimeout = limits.keepAliveMs;
  server.timeout = limits.idleMs;
}

/**
 * Counts each client's open connections over several servers and closes,
 * at once, any beyond `perClient`: a client that holds hundreds of slow
 * connections reaches the cap, and the server keeps its file descriptors
 * for everyone else. Logged once each time a client reaches the cap.
 */
export class ConnectionCap {
  private readonly open = new Map<string, number>();
  private readonly refusing = new Set<string>();

  constructor(
    private readonly perClient: number,
    private readonly log: (line: string) => void,
  ) {}

  watch(server: Server): void {
    // After the HTTP server's own listener, so a refused socket is cleaned up as any closed one; it has read nothing yet.
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    const client = clientNetwork(socket.remoteAddress ?? 'unknown');
    const count = (this.open.get(client) ?? 0) + 1;
    if (count > this.perClient) {
      if (!this.refusing.has(client)) {
        this.refusing.add(client);
        this.log(`Portico: ${client} holds ${this.perClient} connections, the most one client may; closing its further ones`);
      }
      socket.destroy();
      return;
    }
    this.open.set(client, count);
    socket.once('close', () => {
      const left = this.open.get(client)! - 1;
      if (left === 0) this.open.delete(client);
      else this.open.set(client, left);
      if (left < this.perClient) this.refusing.delete(client);
    });
  }
}
