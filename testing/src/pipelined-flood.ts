import { connect, type Socket } from 'node:net';

export interface PipelinedFloodOptions {
  port: number;
  /** The address the connections come from (a loopback one: Linux routes all of 127/8 to lo). */
  localAddress: string;
  connections: number;
  /** Requests each connection sends, all at once, before reading anything. */
  requestsPerConnection: number;
  /** One request, sent that many times back to back (keep-alive). */
  request: string;
}

export interface PipelinedFlood {
  /** Bytes the kernel took from each connection so far: what the server's side let in. */
  sent(): number;
  /** Ends every connection (destroys them, unread). */
  stop(): void;
}

/**
 * The flood of issue 46: keep-alive connections from one address, each
 * writing `requestsPerConnection` pipelined requests as fast as the kernel
 * takes them and never reading an answer (its socket paused from the start,
 * so the answers fill the buffers on both sides). Loopback only.
 */
export async function pipelinedFlood(options: PipelinedFloodOptions): Promise<PipelinedFlood> {
  const sockets: Socket[] = [];
  let sent = 0;
  const chunkRequests = Math.max(1, Math.floor((64 * 1024) / Buffer.byteLength(options.request)));
  const opened = Array.from(
    { length: options.connections },
    () =>
      new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: options.port, localAddress: options.localAddress });
        sockets.push(socket);
        socket.pause();
        socket.on('error', () => undefined);
        socket.once('close', () => resolve());
        socket.once('connect', () => {
          resolve();
          let left = options.requestsPerConnection;
          const push = () => {
            while (left > 0 && !socket.destroyed) {
              const count = Math.min(left, chunkRequests);
              left -= count;
              const chunk = Buffer.from(options.request.repeat(count), 'latin1');
              const more = socket.write(chunk, (error) => {
                if (!error) sent += chunk.length;
              });
              if (!more) return void socket.once('drain', push);
            }
          };
          push();
        });
      }),
  );
  await Promise.all(opened);
  return {
    sent: () => sent,
    stop: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}
