/** @jest-environment node */
// A real HTTP server on 127.0.0.1: what the clients put on the wire is what is checked.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import axios, { AxiosError, type AxiosAdapter } from 'axios';
import { HTTP_TIMEOUT_MS } from '../timeout';
import { createFormClient } from '../create-form-client';
import { createJsonClient } from '../create-json-client';

interface Echo {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseURL: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/hang') return; // never answers: the client's timeout must end it
      if (request.url === '/fail') {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'broken' }));
        return;
      }
      const echo: Echo = { method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(echo));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // The /hang request's socket would keep the server, and jest, alive.
  for (const socket of sockets) socket.destroy();
  server.close();
  await once(server, 'close');
});

describe('createJsonClient', () => {
  test('sends X-Requested-With and the two headers named by the URL, and resolves to the body', async () => {
    const client = createJsonClient({ baseURL, search: '?token=abc123&channel=google-play&other=x' });

    const echo = await client.get<Echo>('/echo');

    expect(echo.method).toBe('GET');
    expect(echo.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(echo.headers['x-app-token']).toBe('abc123');
    expect(echo.headers['x-app-channel']).toBe('google-play');
    expect(echo.headers).not.toHaveProperty('other');
  });

  test('posts JSON and resolves to the parsed body, not the axios response', async () => {
    const client = createJsonClient({ baseURL, search: '' });

    const echo = await client.post<Echo>('/echo', { amount: 2000, term: 7 });

    expect(echo).not.toHaveProperty('status');
    expect(echo.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(echo.body)).toEqual({ amount: 2000, term: 7 });
  });

  test('reads the query string at each request when given a function', async () => {
    let search = '?token=first';
    const client = createJsonClient({ baseURL, search: () => search });

    const first = await client.get<Echo>('/echo');
    search = '?token=second';
    const second = await client.get<Echo>('/echo');

    expect(first.headers['x-app-token']).toBe('first');
    expect(second.headers['x-app-token']).toBe('second');
  });

  test('takes another mapping of headers to parameters', async () => {
    const client = createJsonClient({
      baseURL,
      search: '?lang=id&token=ignored',
      queryHeaders: [{ header: 'Accept-Language', param: 'lang' }],
    });

    const echo = await client.get<Echo>('/echo');

    expect(echo.headers['accept-language']).toBe('id');
    expect(echo.headers).not.toHaveProperty('x-app-token');
  });

  test('lets a header set on the request itself win over the URL', async () => {
    const client = createJsonClient({ baseURL, search: '?token=from-url' });

    const echo = await client.get<Echo>('/echo', { headers: { 'X-App-Token': 'explicit' } });

    expect(echo.headers['x-app-token']).toBe('explicit');
  });

  test.each([
    ['a carriage return and line feed', '?token=abc%0D%0AX-Injected:%201'],
    ['a line feed', '?token=abc%0Adef'],
    ['a tab', '?token=abc%09def'],
    ['a NUL character', '?token=abc%00'],
    ['a DEL character', '?token=abc%7F'],
    ['a character outside ASCII', '?token=%E4%B8%AD'],
    ['nothing', '?token='],
    ['only a space', '?token=%20'],
    ['only spaces, written as +', '?token=+++'],
    ['257 characters', `?token=${'a'.repeat(257)}`],
  ])('sends no header for a value with %s, and still sends the request', async (_case, search) => {
    const client = createJsonClient({ baseURL, search: `${search}&channel=web` });

    const echo = await client.get<Echo>('/echo');

    expect(echo.headers).not.toHaveProperty('x-app-token');
    expect(echo.headers).not.toHaveProperty('x-injected');
    expect(echo.headers['x-app-channel']).toBe('web');
  });

  test('drops the spaces around a value', async () => {
    const client = createJsonClient({ baseURL, search: '?token=%20abc%20&channel=+web' });

    const echo = await client.get<Echo>('/echo');

    expect(echo.headers['x-app-token']).toBe('abc');
    expect(echo.headers['x-app-channel']).toBe('web');
  });

  test('sends a value of exactly 256 characters', async () => {
    const client = createJsonClient({ baseURL, search: `?token=${'a'.repeat(256)}` });

    const echo = await client.get<Echo>('/echo');

    expect(echo.headers['x-app-token']).toHaveLength(256);
  });

  test('rejects with the AxiosError axios produced, untouched', async () => {
    const client = createJsonClient({ baseURL, search: '' });
    // Wrap the real adapter to see the error before the client's interceptors do.
    const http = axios.getAdapter('http');
    let seen: unknown;
    const watching: AxiosAdapter = async (config) => {
      try {
        return await http(config);
      } catch (error) {
        seen = error;
        throw error;
      }
    };
    client.defaults.adapter = watching;

    const error: unknown = await client.get('/fail').catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(AxiosError);
    expect(error).toBe(seen);
    expect((error as AxiosError).response?.status).toBe(500);
    expect((error as AxiosError).response?.data).toEqual({ message: 'broken' });
  });

  test('gives up after the timeout it was given', async () => {
    const client = createJsonClient({ baseURL, search: '', timeout: 100 });
    // The server never answers: only the client's own timeout ends this (ECONNABORTED).
    const error: unknown = await client.get('/hang').catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe(AxiosError.ECONNABORTED);
  });

  test('waits 60 seconds by default', () => {
    expect(HTTP_TIMEOUT_MS).toBe(60_000);
    expect(createJsonClient().defaults.timeout).toBe(60_000);
  });

  test('refuses a header name that HTTP does not allow', () => {
    expect(() => createJsonClient({ queryHeaders: [{ header: 'X Token', param: 'token' }] })).toThrow(
      'createJsonClient: "X Token" is not a valid HTTP header name',
    );
    expect(() => createJsonClient({ queryHeaders: [{ header: 'X-Token', param: '' }] })).toThrow(
      'createJsonClient: the query parameter for header X-Token is empty',
    );
  });
});

describe('createFormClient', () => {
  test('posts an object url-encoded, with its two headers from the URL and none of the JSON ones', async () => {
    const client = createFormClient({ baseURL, search: '?version=2.3.0&deviceId=d-42&token=abc' });

    const response = await client.post<Echo>('/echo', { phone: '+91 98765 43210', amount: 2000 });

    expect(response.status).toBe(200);
    const echo = response.data;
    expect(echo.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(echo.body))).toEqual({ phone: '+91 98765 43210', amount: '2000' });
    expect(echo.headers['x-app-version']).toBe('2.3.0');
    expect(echo.headers['x-device-id']).toBe('d-42');
    expect(echo.headers).not.toHaveProperty('x-app-token');
    expect(echo.headers).not.toHaveProperty('x-requested-with');
  });

  test('posts URLSearchParams as they are', async () => {
    const client = createFormClient({ baseURL, search: '' });

    const { data } = await client.post<Echo>(
      '/echo',
      new URLSearchParams([
        ['a', '1'],
        ['a', '2'],
      ]),
    );

    expect(data.body).toBe('a=1&a=2');
  });

  test('drops a header value with a line break', async () => {
    const client = createFormClient({ baseURL, search: '?version=1%0D%0ASet-Cookie:%20x&deviceId=d-1' });

    const { data } = await client.post<Echo>('/echo', { a: '1' });

    expect(data.headers).not.toHaveProperty('x-app-version');
    expect(data.headers).not.toHaveProperty('set-cookie');
    expect(data.headers['x-device-id']).toBe('d-1');
  });

  test('rejects with an untouched AxiosError on HTTP 500', async () => {
    const client = createFormClient({ baseURL, search: '' });

    const error: unknown = await client.post('/fail', { a: '1' }).catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).response?.status).toBe(500);
  });

  test('gives up after the timeout it was given, and waits 60 seconds by default', async () => {
    const client = createFormClient({ baseURL, search: '', timeout: 100 });

    const error: unknown = await client.post('/hang', { a: '1' }).catch((reason: unknown) => reason);

    expect((error as AxiosError).code).toBe(AxiosError.ECONNABORTED);
    expect(createFormClient().defaults.timeout).toBe(60_000);
  });

  test('refuses a bad header name with its own name in the message', () => {
    expect(() => createFormClient({ queryHeaders: [{ header: 'X-Id:', param: 'id' }] })).toThrow('createFormClient: "X-Id:" is not a valid HTTP header name');
  });
});
