import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { eventually } from '@portico/testing/eventually';
import { pipelinedFlood } from '@portico/testing/pipelined-flood';
import { RequestBounds, type RequestBoundsLimits } from '../request-bounds';

// The bounds on requests in flight (issue 46, item 4) on a bare node:http
// server whose route answers after a short wait, so requests pile up as they
// do behind a page being rendered: the flood comes from 127.0.0.2, the
// visitor from 127.0.0.1. Checked to fail without the bounds (`admit` calling
// `handle` at once): 200 requests at once on one connection, 1,551 for one
// client.

const FLOODER = '127.0.0.2';
const LIMITS = { perConnection: 4, perClient: 12, heldPerConnection: 4_096, heldPerClient: 16_384 } satisfies RequestBoundsLimits;
/** Shared by every answer: a big answer fills the buffers of a client that does not read after a few. */
const BIG = Buffer.alloc(512 * 1024, 'x');

interface Watched {
  server: Server;
  port: number;
  bounds: RequestBounds;
  /** The most requests the route held at once, per client address and per connection. */
  most: { byClient: Map<string, number>; byConnection: number };
  handled: () => number;
}

async function watchedServer(limits: RequestBoundsLimits | undefined): Promise<Watched> {
  const bounds = new RequestBounds(limits ?? LIMITS);
  const now = new Map<string, number>();
  const perSocket = new WeakMap<object, number>();
  const most = { byClient: new Map<string, number>(), byConnection: 0 };
  let handled = 0;
  const route = (req: IncomingMessage, res: ServerResponse) => {
    handled++;
    const client = req.socket.remoteAddress!;
    now.set(client, (now.get(client) ?? 0) + 1);
    most.byClient.set(client, Math.max(most.byClient.get(client) ?? 0, now.get(client)!));
    perSocket.set(req.socket, (perSocket.get(req.socket) ?? 0) + 1);
    most.byConnection = Math.max(most.byConnection, perSocket.get(req.socket)!);
    const ended = () => {
      now.set(client, now.get(client)! - 1);
      perSocket.set(req.socket, perSocket.get(req.socket)! - 1);
    };
    // Before the bounds' own listener, which hands the next request on at once.
    res.prependOnceListener('finish', ended);
    // Asynchronous, as every route of the site is: Node hands the next parsed request on meanwhile.
    setTimeout(() => {
      const body = req.url?.startsWith('/big') ? BIG : Buffer.from(req.url ?? '');
      req.resume();
      req.once('end', () => res.writeHead(200, { 'Content-Length': body.length }).end(body));
    }, 2);
  };
  const server = createServer((req, res) => (limits === undefined ? route(req, res) : bounds.admit(req, res, () => route(req, res))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, bounds, most, handled: () => handled };
}

let watched: Watched;
beforeEach(async () => {
  watched = await watchedServer(LIMITS);
});
afterEach(async () => {
  watched.server.closeAllConnections();
  await new Promise((resolve) => watched.server.close(resolve));
});

/** Sends `requests` on one connection from `localAddress` and reads every answer; resolves with their bodies in order. */
function pipelined(port: number, requests: string[], localAddress = '127.0.0.1'): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let received = '';
    const bodies = () =>
      [...received.matchAll(/Content-Length: (\d+)\r\n(?:[^\r]+\r\n)*\r\n/g)].map((match) => received.substr(match.index + match[0].length, Number(match[1])));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (bodies().length === requests.length && bodies().every((body, index) => body.length === requests[index]!.split(' ')[1]!.length)) {
        socket.destroy();
        resolve(bodies());
      }
    });
    socket.on('error', reject);
    socket.write(requests.join(''));
  });
}

const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

test('a client that reads gets every pipelined answer, in order, with no more than the bound handled at once on its connection', async () => {
  const targets = Array.from({ length: 200 }, (_, index) => `/n${index}`);
  expect(await pipelined(watched.port, targets.map(get))).toEqual(targets);
  expect(watched.most.byConnection).toBeLessThanOrEqual(LIMITS.perConnection);
  expect(watched.most.byConnection).toBeGreaterThan(1);
});

test('a pipelined POST whose body comes after its connection was paused is read and answered', async () => {
  const post = `POST /post HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\n`;
  const socket = connect({ host: '127.0.0.1', port: watched.port });
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.write(Array.from({ length: LIMITS.perConnection }, () => get('/n')).join('') + post);
  socket.write('hello');
  await eventually(() => expect(received.split('HTTP/1.1 200').length - 1).toBe(LIMITS.perConnection + 1), { what: 'every answer' });
  expect(received).toMatch(/\/post$/);
  socket.destroy();
});

test("a flood that never reads is handled only up to the bounds, and another client's requests are answered meanwhile", async () => {
  const flood = await pipelinedFlood({ port: watched.port, localAddress: FLOODER, connections: 8, requestsPerConnection: 200, request: get('/big') });
  try {
    // The buffers on both sides fill after a few answers of 512 KB; the flood is then still sending, or all sent and unread.
    await eventually(() => watched.handled() >= LIMITS.perClient, { what: 'the flood handled up to its bound' });
    for (let visit = 0; visit < 5; visit++) expect(await pipelined(watched.port, [get(`/visit${visit}`)])).toEqual([`/visit${visit}`]);
    expect(watched.most.byClient.get(FLOODER)).toBeLessThanOrEqual(LIMITS.perClient);
    expect(watched.most.byConnection).toBeLessThanOrEqual(LIMITS.perConnection);
    // 1,600 sent: what was handled is what the buffers took, a small share (each connection's answers stop at its buffers).
    expect(watched.handled()).toBeLessThan(8 * 200 * 0.5);
    expect(watched.bounds.counts.held).toBeGreaterThan(0);
  } finally {
    flood.stop();
  }
}, 30_000);

test('without the bounds (what Node does alone) the same flood is all handled at once: the test above can fail', async () => {
  const bare = await watchedServer(undefined);
  const flood = await pipelinedFlood({ port: bare.port, localAddress: FLOODER, connections: 8, requestsPerConnection: 200, request: get('/big') });
  try {
    await eventually(() => bare.handled() === 8 * 200, { what: 'every request of the flood handled' });
    expect(bare.most.byClient.get(FLOODER)).toBeGreaterThan(LIMITS.perClient);
  } finally {
    flood.stop();
    bare.server.closeAllConnections();
    await new Promise((resolve) => bare.server.close(resolve));
  }
}, 30_000);

test('a connection holding more parsed requests than heldPerConnection is closed, and the rest of its chunk is not handled', async () => {
  const strict = await watchedServer({ ...LIMITS, heldPerConnection: 16 });
  try {
    const socket = connect({ host: '127.0.0.1', port: strict.port, localAddress: FLOODER });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.resume();
    socket.write(Array.from({ length: 400 }, (_, index) => get(`/n${index}`)).join(''));
    await closed;
    expect(strict.bounds.counts.closedConnections).toBe(1);
    // The 4 in flight when it went; none of the 396 others.
    expect(strict.handled()).toBe(LIMITS.perConnection);
  } finally {
    strict.server.closeAllConnections();
    await new Promise((resolve) => strict.server.close(resolve));
  }
});
