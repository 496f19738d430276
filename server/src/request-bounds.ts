import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientNetwork } from '@portico/messages';

/** How many requests may be in flight (handed to a route, its answer not yet out to the kernel) at once. */
export interface RequestBoundsLimits {
  /** On one connection: a browser has one; more are pipelined requests sent before reading an answer. */
  perConnection: number;
  /** Over one client's connections (an IPv4 address, an IPv6 /64) on the four ports; undefined behind a trusted proxy. */
  perClient: number | undefined;
  /**
   * Requests already parsed but not yet handed on, per connection: Node's
   * parser reads a whole 64 KB chunk before reading can stop (some 1,600
   * requests of 41 bytes). A connection past this is closed: no browser
   * pipelines, and what it holds is memory and the time to parse it.
   */
  heldPerConnection: number;
  /** The same over one client's connections. */
  heldPerClient: number;
}

export const DEFAULT_REQUEST_BOUNDS: Readonly<RequestBoundsLimits> = {
  perConnection: 8,
  perClient: 64,
  heldPerConnection: 256,
  heldPerClient: 4_096,
};

/**
 * What Node's http server keeps on a socket it reads: `_paused` is its own
 * flag that a pipelining flood paused the socket (node/lib/_http_server.js,
 * parserOnIncoming): while it is set, neither a request body's read
 * (`IncomingMessage._read`) nor the socket's 'resume' starts reading again,
 * and the parser is paused after the chunk it is in. Set and cleared here
 * as Node does (socketOnDrain).
 */
interface HttpSocket extends Socket {
  _paused?: boolean;
  parser?: { resume(): void } | null;
}

interface Client {
  key: string;
  /** Its open connections that made a request: the entry goes with the last. */
  connections: number;
  inFlight: number;
  held: number;
  /** Its connections that hold requests or were paused for its sake, first come first served. */
  waiting: Set<Connection>;
}

interface Connection {
  socket: HttpSocket;
  client: Client | undefined;
  inFlight: number;
  /** Requests parsed and not yet handed on, in order, each with what hands it on. */
  held: { req: IncomingMessage; go: () => void }[];
  paused: boolean;
  closed: boolean;
}

/**
 * Bounds the requests in flight per connection and per client: a request
 * past either bound is not handed to the routes, and its connection stops
 * being read (the socket paused, as Node pauses it when answers pile up
 * unsent), so pipelined requests a client sends without reading the
 * answers stay in the kernel's buffers, unread, until earlier answers have
 * gone out. Node alone hands every request it parses to the routes at
 * once, and pauses only when answers already written pile up, which an
 * asynchronous route has not done yet: 40 connections of 20,000 pipelined
 * `GET /` were 800,000 requests at once (issue 46).
 */
export class RequestBounds {
  private readonly connections = new WeakMap<Socket, Connection>();
  private readonly clients = new Map<string, Client>();
  /** Requests handed to the routes, and held back for a while, since the start: what a test or a bench reads. */
  readonly counts = { handled: 0, held: 0, closedConnections: 0 };

  constructor(private readonly limits: RequestBoundsLimits) {}

  /** Hands `req` to `handle` now, or once the connection and its client have room. */
  admit(req: IncomingMessage, res: ServerResponse, handle: () => void): void {
    const connection = this.connectionOf(req.socket as HttpSocket);
    // The rest of the chunk of a connection closed below: gone without an answer.
    if (connection.closed) return void req.destroy();
    if (connection.held.length === 0 && this.hasRoom(connection)) return this.run(connection, req, res, handle);
    this.counts.held++;
    // Handed on later from an answer's 'finish', itself often on the same tick as the write: in a turn of the event loop of its own (setImmediate).
    connection.held.push({ req, go: () => this.run(connection, req, res, () => setImmediate(() => connection.closed || handle())) });
    if (connection.client) connection.client.held++;
    this.pause(connection);
    const { client } = connection;
    if (connection.held.length > this.limits.heldPerConnection || (client && client.held > this.limits.heldPerClient)) {
      this.counts.closedConnections++;
      // Each destroyed first without an error: Node's own destroy of what a closed connection parsed (abortIncoming) then skips them,
      // where it would format an error's stack for each (with source maps: a third of the time a flood's first round took).
      for (const held of connection.held) held.req.destroy();
      connection.socket.destroy();
      // At once: the rest of the chunk the parser is in is dropped as it comes, not held.
      this.forget(connection);
    }
  }

  private connectionOf(socket: HttpSocket): Connection {
    let connection = this.connections.get(socket);
    if (connection) return connection;
    const client = this.limits.perClient === undefined ? undefined : this.clientOf(clientNetwork(socket.remoteAddress ?? 'unknown'));
    connection = { socket, client, inFlight: 0, held: [], paused: false, closed: false };
    this.connections.set(socket, connection);
    socket.once('close', () => this.forget(connection!));
    return connection;
  }

  private clientOf(key: string): Client {
    let client = this.clients.get(key);
    if (!client) this.clients.set(key, (client = { key, connections: 0, inFlight: 0, held: 0, waiting: new Set() }));
    client.connections++;
    return client;
  }

  private hasRoom(connection: Connection): boolean {
    const { client } = connection;
    return connection.inFlight < this.limits.perConnection && (client === undefined || client.inFlight < this.limits.perClient!);
  }

  private run(connection: Connection, req: IncomingMessage, res: ServerResponse, handle: () => void): void {
    const { client } = connection;
    connection.inFlight++;
    if (client) client.inFlight++;
    this.counts.handled++;
    let done = false;
    const finished = () => {
      if (done || connection.closed) return;
      done = true;
      connection.inFlight--;
      if (client) client.inFlight--;
      this.next(connection);
    };
    // 'close' comes after 'finish' (on the next tick), or when the connection went first: one listener, no once() wrapper.
    res.on('close', finished);
    handle();
    // A body still coming is read, whatever waits: its route cannot answer without it, and what else arrives is held.
    if (!req.complete) this.resume(connection);
  }

  /** Room was made on `connection` (and its client): what waits there, or on its client's other connections, goes on. */
  private next(connection: Connection): void {
    const { client } = connection;
    if (!client) return this.pump(connection);
    // The connection that made room first, then the client's others in turn.
    this.pump(connection);
    this.wake(client);
  }

  /** The client's waiting connections, in the order they began to wait, while it has room. */
  private wake(client: Client): void {
    // Every answer comes here: a client with no connection waiting (nearly always) costs no copy of the set.
    if (client.waiting.size === 0) return;
    for (const waiting of [...client.waiting]) {
      if (client.inFlight >= this.limits.perClient!) return;
      client.waiting.delete(waiting);
      this.pump(waiting);
    }
  }

  /** Hands on what `connection` holds while there is room, and reads from it again once it holds nothing. */
  private pump(connection: Connection): void {
    const { client } = connection;
    while (connection.held.length > 0 && this.hasRoom(connection)) {
      if (client) client.held--;
      connection.held.shift()!.go();
    }
    if (connection.held.length === 0 && this.hasRoom(connection)) this.resume(connection);
    else if (client && (connection.held.length > 0 || connection.paused)) client.waiting.add(connection);
  }

  private pause(connection: Connection): void {
    connection.client?.waiting.add(connection);
    if (connection.paused) return;
    connection.paused = true;
    connection.socket._paused = true;
    connection.socket.pause();
  }

  private resume(connection: Connection): void {
    if (connection.held.length === 0) connection.client?.waiting.delete(connection);
    if (!connection.paused || connection.closed) return;
    connection.paused = false;
    const { socket } = connection;
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  }

  private forget(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    const { client } = connection;
    if (!client) return;
    client.inFlight -= connection.inFlight;
    client.held -= connection.held.length;
    client.waiting.delete(connection);
    connection.held = [];
    client.connections--;
    if (client.connections === 0) this.clients.delete(client.key);
    // Its answers in flight are gone: the client's other connections may go on.
    else this.wake(client);
  }
}
