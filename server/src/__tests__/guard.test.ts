import type { Server } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { linesLogger } from '@portico/platform/testing';
import { eventually } from '@portico/testing/eventually';
import { listenOn } from '@portico/platform/http';
import { DEFAULT_CLIENT_LIMITS } from '../client-limits';
import { appServer } from '../http/app-server';
import { httpRequest, rawRequest } from './built-site';

const logged: string[] = [];
let server: Server;
let port: number;
let endless: Readable | undefined;

beforeAll(async () => {
  const log = linesLogger((line) => logged.push(line));
  const served = appServer({ hosts: [{ hostname: 'localhost' }, { hostname: '127.0.0.1' }], trustProxy: false, limits: DEFAULT_CLIENT_LIMITS, log });
  served.app.get('/throws', () => {
    throw new Error('thrown at once');
  });
  served.app.get('/rejects', async () => {
    await Promise.resolve();
    throw new Error('rejected later');
  });
  // A file whose reading fails after its first bytes went out (send's stream, as the file routes send it).
  served.app.get('/half', (_request, reply) => {
    const file = new Readable({ read() {} });
    file.push('half');
    setTimeout(() => file.destroy(new Error('failed mid-answer')), 50);
    return reply.header('Content-Length', '100').send(file);
  });
  // A file whose client leaves before its last byte: the stream is closed under the route.
  served.app.get('/endless', (_request, reply) => {
    endless = new Readable({ read() {} });
    endless.push('first bytes');
    return reply.header('Content-Length', '100000').send(endless);
  });
  served.app.get('/', (_request, reply) => reply.send('fine'));
  await served.app.ready();
  server = served.server;
  port = (await listenOn(server, { port: 0, host: '127.0.0.1', taken: String, failed: String })).port;
});
afterEach(() => {
  logged.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test.each(['/throws', '/rejects'])('a handler that fails (%s) answers 500, is logged once, and the next request is served', async (target) => {
  const answer = await rawRequest(port, httpRequest(target));
  expect(answer?.status).toBe(500);
  expect(answer?.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(logged).toHaveLength(1);
  // Named by its path (a query may hold a preview token), with the error's message; the stack is on the JSON line's `err`.
  expect(logged[0]).toMatch(new RegExp(`^GET "${target}" failed: (thrown at once|rejected later)$`));
  expect((await rawRequest(port, httpRequest('/')))?.body).toBe('fine');
});

test('a failure after the answer began cuts the connection rather than send a second status', async () => {
  const answer = await rawRequest(port, httpRequest('/half'));
  expect(answer?.status).toBe(200);
  expect(answer?.body).toBe('half');
  expect(logged).toHaveLength(1);
  expect((await rawRequest(port, httpRequest('/')))?.body).toBe('fine');
});

test('a client that leaves in the middle of a file is no line in the log (Fastify says one at info per connection)', async () => {
  const socket = connect({ host: '127.0.0.1', port });
  socket.write(httpRequest('/endless').replace('{port}', String(port)));
  await new Promise((resolve) => socket.once('data', resolve));
  socket.destroy();
  await eventually(() => endless?.destroyed === true, { what: 'the file stream closed', withinMs: 10_000, everyMs: 20 });
  await new Promise((resolve) => setImmediate(resolve));
  expect(logged).toEqual([]);
});

test.each([
  ['a request line Node cannot read', 'GET / HTTP/9\r\n\r\n', 400],
  ['a header without a colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nbroken\r\n\r\n', 400],
  ['headers over 16 KB', `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
])("what Node's parser refuses (%s) is answered with our headers", async (_what, request, status) => {
  const answer = await rawRequest(port, request);
  expect(answer?.status).toBe(status);
  expect(answer?.headers['x-frame-options']).toBe('DENY');
  expect(answer?.headers['x-content-type-options']).toBe('nosniff');
  expect(logged).toEqual([]);
});
