import type { FastifyPluginCallback } from 'fastify';
import { linesLogger } from '@portico/platform/testing';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { readSetting } from '@portico/platform/settings';
import { DEFAULT_CLIENT_LIMITS, type ClientLimits } from '../client-limits';
import { startPortico, type PorticoServerOptions, type RunningPortico } from '../portico-server';
import { httpRequest, INDEX_HTML, makeBuiltSite, portOf, rawRequest } from './built-site';
import { eventually } from '@portico/testing/eventually';

/**
 * Slow and many clients, on loopback only: the flood comes from 127.0.0.2,
 * the visitor from 127.0.0.1 (Linux routes all of 127/8 to lo). Every wait
 * below is bounded by what the client would take to finish on its own,
 * many times the limit under test.
 */
const site = makeBuiltSite();
afterAll(() => site.remove());

const FLOODER = '127.0.0.2';

async function withServer(options: Partial<PorticoServerOptions>, test: (port: number, logged: string[]) => Promise<void>): Promise<void> {
  const logged: string[] = [];
  const running: RunningPortico = await startPortico({
    rootDir: site.root,
    basePort: 0,
    host: '127.0.0.1',
    log: linesLogger((line) => logged.push(line)),
    ...options,
  });
  try {
    await test(portOf(running.url), logged);
  } finally {
    await running.close();
  }
}

interface Held {
  socket: Socket;
  /** What the server sent before it closed. */
  received: () => string;
  closed: boolean;
  whenClosed: Promise<void>;
}

/** A connection from `localAddress` that sends `start` and then nothing until told. */
function hold(port: number, start: string, localAddress = FLOODER): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let received = '';
    let markClosed!: () => void;
    const held: Held = { socket, received: () => received, closed: false, whenClosed: new Promise((done) => (markClosed = done)) };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      held.closed = true;
      markClosed();
    });
    socket.once('connect', () => {
      socket.write(start);
      resolve(held);
    });
    socket.once('error', reject);
  });
}

/** Sends `text` one byte per `everyMs` while the connection lasts; resolves with how much was sent. */
async function trickle(held: Held, text: string, everyMs: number): Promise<number> {
  let sent = 0;
  while (sent < text.length && !held.closed) {
    held.socket.write(text[sent++]!);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, everyMs)), held.whenClosed]);
  }
  return sent;
}

const slowHeaders = (port: number) => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`;

describe('many slow connections from one address', () => {
  test(`beyond ${DEFAULT_CLIENT_LIMITS.connectionsPerClient} are closed at once, and a visitor from another address gets the page`, async () => {
    await withServer({}, async (port, logged) => {
      const cap = DEFAULT_CLIENT_LIMITS.connectionsPerClient;
      const extra = 64;
      const flood: Held[] = [];
      try {
        for (let index = 0; index < cap + extra; index++) flood.push(await hold(port, slowHeaders(port)));
        // The refused ones are closed as they arrive; 8 s is far more than that takes, and less than the header time.
        await eventually(() => flood.filter((held) => held.closed).length >= extra, { what: `${extra} refused connections closed`, withinMs: 8_000 });
        expect(flood.filter((held) => held.closed)).toHaveLength(extra);
        expect(logged.filter((line) => line.includes(`a client holds ${cap} connections`) && !line.includes(FLOODER))).toHaveLength(1);

        const started = performance.now();
        const visit = await rawRequest(port, httpRequest('/', { host: `127.0.0.1:${port}` }));
        const ms = performance.now() - started;
        process.stderr.write(`slow-client flood: ${cap + extra} slow connections from ${FLOODER}, the page from 127.0.0.1 in ${ms.toFixed(1)} ms\n`);
        expect(visit?.status).toBe(200);
        // How fast is the benchmark's to say (the figure above is printed, not asserted); here, that it is served.
        expect(visit?.body).toBe(INDEX_HTML('host'));
      } finally {
        for (const held of flood) held.socket.destroy();
      }
    });
  }, 60_000);
});

describe('a slow client is closed, and the next in line served', () => {
  const short: Partial<ClientLimits> = { headersMs: 400, requestMs: 800, keepAliveMs: 300, connectionsPerClient: 4 };
  /** An API that reads the whole body before answering, as the contact endpoint does. */
  const api: FastifyPluginCallback = (app, _options, done) => {
    app.addContentTypeParser('*', (_request, payload, parsed) => void payload.resume().on('end', () => parsed(null, undefined)));
    app.post('/api/slow', (_request, reply) => reply.send('{}'));
    done();
  };

  test('headers trickled in are cut off with a 408', async () => {
    await withServer({ clientLimits: short }, async (port) => {
      const held = await hold(port, 'GET / HTTP/1.1\r\n', '127.0.0.1');
      // 60 bytes at 100 ms: 6 s, fifteen times the header time.
      const sent = await trickle(held, `Host: 127.0.0.1:${port}\r\nAccept: text/html\r\nX-Slow: ${'x'.repeat(20)}\r\n\r\n`, 100);
      expect(held.closed).toBe(true);
      expect(sent).toBeLessThan(60);
      expect(held.received()).toMatch(/^HTTP\/1\.1 408 /);
    });
  }, 30_000);

  test('a body trickled in is cut off with a 408', async () => {
    await withServer({ clientLimits: short, api }, async (port) => {
      const body = 'x'.repeat(60);
      const held = await hold(port, `POST /api/slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${body.length}\r\n\r\n`, '127.0.0.1');
      const sent = await trickle(held, body, 100);
      expect(held.closed).toBe(true);
      expect(sent).toBeLessThan(body.length);
      expect(held.received()).toMatch(/^HTTP\/1\.1 408 /);
    });
  }, 30_000);

  test('an idle kept-alive connection is closed', async () => {
    await withServer({ clientLimits: short }, async (port) => {
      const held = await hold(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, '127.0.0.1');
      // Closed by the server long before the 6 s a client would keep it.
      await eventually(() => held.closed, { what: 'the idle connection closed', withinMs: 6_000 });
      expect(held.received()).toMatch(/^HTTP\/1\.1 200 /);
    });
  }, 30_000);

  test('over the cap a connection is closed at once; once one closes, the next is served; other addresses are not counted', async () => {
    await withServer({ clientLimits: { connectionsPerClient: 4 } }, async (port) => {
      const kept = await Promise.all(Array.from({ length: 4 }, () => hold(port, slowHeaders(port))));
      const fifth = await hold(port, slowHeaders(port));
      await eventually(() => fifth.closed, { what: 'the fifth connection closed', withinMs: 5_000 });
      expect(kept.every((held) => !held.closed)).toBe(true);
      expect((await rawRequest(port, httpRequest('/', { host: `127.0.0.1:${port}` })))?.status).toBe(200);

      kept[0]!.socket.destroy();
      await kept[0]!.whenClosed;
      // The server counts the close when it sees it (a moment later); from then on the next one is served.
      await eventually(
        async () => {
          const next = await hold(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
          await next.whenClosed;
          expect(next.received()).toMatch(/^HTTP\/1\.1 200 /);
        },
        { what: 'the next connection served', withinMs: 5_000, everyMs: 50 },
      );
      for (const held of kept) held.socket.destroy();
    });
  }, 30_000);

  test("behind a trusted proxy every connection is the proxy's: no cap", async () => {
    await withServer({ trustProxy: true, hostnames: ['127.0.0.1'], clientLimits: { connectionsPerClient: 2 } }, async (port) => {
      const held = await Promise.all(Array.from({ length: 6 }, () => hold(port, slowHeaders(port), '127.0.0.1')));
      // Time passing is the behaviour here: none is closed within the second in which the
      // untrusted cap closes the fifth at once (the test above asserts that other side).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(held.filter((one) => one.closed)).toHaveLength(0);
      for (const one of held) one.socket.destroy();
    });
  }, 30_000);
});

describe('PORTICO_CONNECTIONS_PER_CLIENT', () => {
  const connectionsPerClientFrom = (env: Record<string, string>) => readSetting(env, 'PORTICO_CONNECTIONS_PER_CLIENT');
  test('moves the cap, and names a bad value', () => {
    expect(connectionsPerClientFrom({})).toBeUndefined();
    expect(connectionsPerClientFrom({ PORTICO_CONNECTIONS_PER_CLIENT: '1024' })).toBe(1024);
    for (const bad of ['0', '8', '1e9', 'lots', '256.5']) {
      expect(() => connectionsPerClientFrom({ PORTICO_CONNECTIONS_PER_CLIENT: bad })).toThrow(
        `PORTICO_CONNECTIONS_PER_CLIENT must be a whole number from 16 to 65535, got "${bad}"`,
      );
    }
  });
});
