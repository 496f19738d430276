import type { FastifyPluginCallback } from 'fastify';
import { silentLogger } from '@portico/platform/logging';
import { connect, type Socket } from 'node:net';
import { startPortico, type RunningPortico } from '../portico-server';
import { makeBuiltSite, portOf, rawRequest } from './built-site';

// What a client gets for a request the server refuses, over raw sockets on
// loopback (the public port), so nothing normalises the request on its way
// (issue 46, item 4): two Host headers, and a refusal whose body is still
// coming.

const site = makeBuiltSite();
afterAll(() => site.remove());

/**
 * An API that refuses as the contact endpoint does, before a byte of the
 * body is read: 403 to a request from another page, and the root plugin's
 * 415 to a body on a route that declares none.
 */
const api: FastifyPluginCallback = (app, _options, done) => {
  app.addHook('onRequest', (request, reply, next) => {
    if (request.headers.origin === 'https://evil.example') return void reply.code(403).send('not from this site');
    next();
  });
  app.post('/api/form', { config: { body: { as: 'json', limits: { limit: 1024, timeMs: 60_000 } } } }, (request, reply) => reply.send({ got: request.body }));
  app.post('/api/ping', (_request, reply) => reply.send('pong'));
  done();
};

let running: RunningPortico;
let port: number;
beforeAll(async () => {
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', ssr: false, api, log: silentLogger });
  port = portOf(running.url);
});
afterAll(() => running.close());

describe('two Host headers', () => {
  test.each([
    ['the right one first', (own: string) => [own, 'evil.example']],
    ['the right one last', (own: string) => ['evil.example', own]],
    ['the same one twice', (own: string) => [own, own]],
  ])('%s: 400, whatever their order', async (_name, hosts) => {
    const lines = hosts(`127.0.0.1:${port}`).map((host) => `Host: ${host}\r\n`);
    const answer = await rawRequest(port, `GET / HTTP/1.1\r\n${lines.join('')}\r\n`);
    expect(answer?.status).toBe(400);
    expect(answer?.body).toContain('more than one Host');
  });

  test('one Host header still gets the page', async () => {
    expect((await rawRequest(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`))?.status).toBe(200);
  });
});

/** Bytes a client may push into one connection here before the test calls it read: far past what the two sockets' buffers hold. */
const PUSH_CAP = 64 * 1024 * 1024;

interface Pushed {
  status: number | undefined;
  /** The server closed the connection before the client had pushed PUSH_CAP. */
  closed: boolean;
  sent: number;
}

/**
 * Sends `head` with a chunked body and then pushes chunks as fast as the
 * connection takes them, until the server closes it or PUSH_CAP has gone:
 * a server that went on reading the body takes them all.
 */
function pushBody(head: string): Promise<Pushed> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    const chunk = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`, 'latin1');
    let received = '';
    let sent = 0;
    let closed = false;
    const finish = () => {
      closed ||= sent < PUSH_CAP;
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]) || undefined, closed, sent });
    };
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (received += data));
    // A server that closes with bytes unread may reset the connection: what it said before counts.
    socket.on('error', finish);
    socket.on('close', finish);
    const push = () => {
      while (!socket.destroyed && sent < PUSH_CAP) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', push);
      }
      if (sent >= PUSH_CAP) finish();
    };
    socket.once('connect', () => {
      socket.write(`${head}Host: 127.0.0.1:${port}\r\nTransfer-Encoding: chunked\r\n\r\n`);
      push();
    });
  });
}

describe('a refused request with a body still coming', () => {
  test.each([
    ['405, a method a file does not take', 'PUT /index.html HTTP/1.1\r\n', 405],
    ['404, a file that is not there', 'GET /no-such-file.0123456789.js HTTP/1.1\r\n', 404],
    ['403, from another page', 'POST /api/form HTTP/1.1\r\nOrigin: https://evil.example\r\nContent-Type: application/json\r\n', 403],
    ['415, a body the route does not take', 'POST /api/ping HTTP/1.1\r\nContent-Type: application/xml\r\n', 415],
  ])('%s: answered, and the connection closed without the body being read', async (_name, head, status) => {
    const pushed = await pushBody(head);
    expect(pushed.status).toBe(status);
    expect(pushed.closed).toBe(true);
  });

  test('a request whose body is read (a form posted whole) keeps its connection', async () => {
    const body = '{"a":1}';
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (received += data));
    const request = `POST /api/form HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    socket.write(request + request);
    await new Promise<void>((resolve) => socket.on('data', () => received.split('HTTP/1.1 200').length === 3 && resolve()));
    expect(received).not.toMatch(/connection: close/i);
    socket.destroy();
  });
});
