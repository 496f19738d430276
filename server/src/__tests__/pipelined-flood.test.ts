import type { FastifyPluginCallback } from 'fastify';
import { silentLogger } from '@portico/platform/logging';
import { eventually } from '@portico/testing/eventually';
import { pipelinedFlood } from '@portico/testing/pipelined-flood';
import { startPortico, type RunningPortico } from '../portico-server';
import { DEFAULT_REQUEST_BOUNDS } from '../request-bounds';
import { httpRequest, INDEX_HTML, makeBuiltSite, portOf, rawRequest } from './built-site';

// Issue 46's flood, scaled down: keep-alive connections from 127.0.0.2
// each send pipelined requests and never read, while a visitor from
// 127.0.0.1 asks for the page. The flood asks for a route whose answer is
// 1 MB (shared, so it costs no memory), so a few answers fill the buffers
// of a connection that is not read, as the page does in the issue. Checked
// to fail without the bounds (appServer handing each request on at once):
// 3,979 of the 4,000 requests handled at once.

const site = makeBuiltSite();
afterAll(() => site.remove());

const FLOODER = '127.0.0.2';
const CONNECTIONS = 8;
const REQUESTS = 500;
const BIG = Buffer.alloc(1024 * 1024, 'x');

const seen = { handled: 0, now: 0, most: 0 };
/** The flood's route: counts what it is handed, and how much at once, and answers after a moment as the page does. */
const api: FastifyPluginCallback = (app, _options, done) => {
  app.get('/api/big', async (request, reply) => {
    seen.handled++;
    seen.most = Math.max(seen.most, ++seen.now);
    // Counted out before the bounds hear of the answer's end (they hand the next request on at once).
    reply.raw.prependOnceListener('finish', () => seen.now--);
    await new Promise((resolve) => setTimeout(resolve, 2));
    return reply.header('Content-Type', 'text/plain').send(BIG);
  });
  done();
};

let running: RunningPortico;
let port: number;
beforeAll(async () => {
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', ssr: false, api, log: silentLogger });
  port = portOf(running.url);
});
afterAll(() => running.close());

test('one client flooding pipelined requests it never reads is handled only up to its bound, and another client gets the page meanwhile', async () => {
  const request = `GET /api/big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: flood\r\n\r\n`;
  const flood = await pipelinedFlood({ port, localAddress: FLOODER, connections: CONNECTIONS, requestsPerConnection: REQUESTS, request });
  try {
    await eventually(() => seen.handled >= DEFAULT_REQUEST_BOUNDS.perClient!, { what: 'the flood handled up to its bound' });
    for (let visit = 0; visit < 10; visit++) {
      const page = await rawRequest(port, httpRequest('/', { host: `127.0.0.1:${port}` }), 10_000);
      expect(page?.status).toBe(200);
      expect(page?.body).toBe(INDEX_HTML('host'));
    }
    expect(seen.most).toBeLessThanOrEqual(DEFAULT_REQUEST_BOUNDS.perClient!);
    // What the buffers of unread connections took, a small share of what was sent.
    expect(seen.handled).toBeLessThan((CONNECTIONS * REQUESTS) / 4);
  } finally {
    flood.stop();
  }
}, 60_000);
