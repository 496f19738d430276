import { readFileSync } from 'node:fs';
import type { Logger } from '@portico/platform/logging';
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
  /** Connections open at once over the four ports, every client together; by default half the process's open-file limit (connectionBudget). */
  connections?: number;
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

/** The soft limit on open files of this process (`ulimit -n`), from Linux's /proc; undefined elsewhere. */
export function openFileLimit(limits = '/proc/self/limits'): number | undefined {
  try {
    const line = readFileSync(limits, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft === undefined || soft === 'unlimited' ? undefined : Number(soft) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the open-file limit leaves for connections: half of it for every
 * client together (the other half for what the server opens itself: files
 * being sent, at most RequestBounds' per-client requests in flight each,
 * the workers' channels, the database), and at most half of that for one
 * client, so one client's connections and the files they are sent never
 * take the last descriptor: issue 46's 60 connections of pipelined
 * requests ran the process out of them. `note` says what was lowered.
 */
export function connectionBudget(openFiles: number | undefined, perClient: number): { connections: number | undefined; perClient: number; note?: string } {
  if (openFiles === undefined) return { connections: undefined, perClient };
  const connections = Math.max(2, Math.floor(openFiles / 2));
  const most = Math.max(1, Math.floor(connections / 2));
  if (perClient <= most) return { connections, perClient };
  return {
    connections,
    perClient: most,
    note: `Portico: the open-file limit (${openFiles}) leaves ${connections} connections at once; one client may hold ${most} of them, not ${perClient} (raise \`ulimit -n\` for more)`,
  };
}

/**
 * Counts each client's open connections over several servers and closes,
 * at once, any beyond `perClient`, and any beyond `connections` over every
 * client: a client that holds hundreds of slow connections reaches the
 * cap, and the server keeps its file descriptors for everyone else. Logged
 * once each time a client (or the server) reaches the cap.
 */
export class ConnectionCap {
  private readonly open = new Map<string, number>();
  private readonly refusing = new Set<string>();
  private total = 0;
  private full = false;

  constructor(
    private readonly perClient: number,
    private readonly log: Logger,
    private readonly connections = Number.POSITIVE_INFINITY,
  ) {}

  watch(server: Server): void {
    // After the HTTP server's own listener, so a refused socket is cleaned up as any closed one; it has read nothing yet.
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    if (this.total >= this.connections) {
      if (!this.full) {
        this.full = true;
        this.log.warn(
          `Portico: ${this.connections} connections are open, the most this server holds (half its open-file limit); closing further ones until some close`,
        );
      }
      socket.destroy();
      return;
    }
    const client = clientNetwork(socket.remoteAddress ?? 'unknown');
    const count = (this.open.get(client) ?? 0) + 1;
    if (count > this.perClient) {
      if (!this.refusing.has(client)) {
        this.refusing.add(client);
        // Not which client: a visitor's address is never logged (docs/privacy.md).
        this.log.warn(`Portico: a client holds ${this.perClient} connections, the most one client may; closing its further ones`);
      }
      socket.destroy();
      return;
    }
    this.open.set(client, count);
    this.total++;
    socket.once('close', () => {
      this.total--;
      if (this.total < this.connections) this.full = false;
      const left = this.open.get(client)! - 1;
      if (left === 0) this.open.delete(client);
      else this.open.set(client, left);
      if (left < this.perClient) this.refusing.delete(client);
    });
  }
}
