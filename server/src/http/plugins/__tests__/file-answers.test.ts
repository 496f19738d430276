import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { COMMON_HEADERS, httpRoot, REQUEST_ID_HEADER, STRICT_TRANSPORT_SECURITY, SUBRESOURCE_HEADERS } from '@portico/platform/http';
import { builtPage } from '../../../built-page';
import { pageHeaders } from '../../../security-headers';
import { answerPage } from '../../../ssr/page-answer';
import type { ServerRendering } from '../../../ssr/server-rendering';
import { staticFiles } from '../../../static-files';
import type { HostSite } from '../../host-site';
import { appFiles } from '../app-files';
import { pages } from '../pages';

// The answers that used to be written on the raw response (the files, the
// page and its 304), through Fastify's inject: no socket is the point, the
// headers are. Each must pass through the root plugin's onSend (the one
// place the security headers, the request id and HSTS are added), which the
// test counts: a route that hijacks its reply and writes it itself is
// caught even if it stamps the headers by hand. Seen failing with the
// root plugin's onSend hook taken out (no nosniff, no X-Request-Id), and
// with the page route put back on its raw response (no onSend).

const HASHED = '/main.0123456789.js';
const HASHED_CSS = '/main.0123456789.css';
const PAGE_HTML = '<!doctype html><title>Portico</title>';

describe('answers once written by hand', () => {
  let dist: string;
  let app: FastifyInstance;
  let throughOnSend = 0;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portico-file-answers-'));
    writeFileSync(path.join(dist, 'index.html'), PAGE_HTML);
    writeFileSync(path.join(dist, HASHED.slice(1)), 'console.log(1);\n');
    writeFileSync(path.join(dist, HASHED_CSS.slice(1)), 'p{}\n');
    const headersOfPage = () => Promise.resolve(pageHeaders([]));
    const files = staticFiles(dist, { crossOrigin: false, pageHeaders: headersOfPage });
    const site = { countPage: () => undefined, pageHeaders: headersOfPage } as unknown as HostSite;
    // The server-rendered page as the pipeline answers a cached one: answerPage with the page's headers.
    const page = { hash: 'page-hash', bodyOf: () => Promise.resolve(Buffer.from(PAGE_HTML)) };
    const rendering = {
      handle: async (request, fallback) => (request.raw.url === '/index.html' ? fallback() : answerPage(request.raw, page, await headersOfPage())),
    } as Pick<ServerRendering, 'handle'> as ServerRendering;

    app = Fastify();
    await app.register(httpRoot, { trustProxy: true });
    app.addHook('onSend', (_request, _reply, _payload, done) => {
      throughOnSend += 1;
      done();
    });
    await app.register(pages, { site, rendering, files: builtPage(dist, { pageHeaders: headersOfPage, disk: files }) });
    await app.register(appFiles, { files, pageHeaders: headersOfPage });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** GET `url` once plainly and once again with the ETag it answered, over https behind the trusted proxy. */
  async function askTwice(url: string) {
    const headers = { host: 'localhost', 'x-forwarded-proto': 'https', 'accept-encoding': 'identity' };
    const first = await app.inject({ method: 'GET', url, headers });
    const again = await app.inject({ method: 'GET', url, headers: { ...headers, 'if-none-match': String(first.headers.etag) } });
    return [first, again] as const;
  }

  test.each([
    ['a hashed file', HASHED, 'text/javascript'],
    ['the server-rendered page', '/', 'text/html'],
    ['the built index.html', '/index.html', 'text/html'],
  ])('%s and its 304 carry the security headers and the request id, set by onSend', async (_what, url, type) => {
    const before = throughOnSend;
    const [first, again] = await askTwice(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain(type);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    for (const answer of [first, again]) {
      for (const [name, value] of Object.entries(SUBRESOURCE_HEADERS)) expect(answer.headers[name.toLowerCase()]).toBe(value);
      expect(answer.headers[REQUEST_ID_HEADER.toLowerCase()]).toMatch(/^req-/);
      expect(answer.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    }
    expect(first.headers[REQUEST_ID_HEADER.toLowerCase()]).not.toBe(again.headers[REQUEST_ID_HEADER.toLowerCase()]);
    expect(throughOnSend - before).toBe(2);
  });

  test.each([
    ['the server-rendered page', '/', COMMON_HEADERS['Permissions-Policy']],
    ['the built index.html', '/index.html', COMMON_HEADERS['Permissions-Policy']],
    ['a hashed script', HASHED, undefined],
    ['a hashed stylesheet', HASHED_CSS, undefined],
  ])('%s carries Permissions-Policy (which only a document reads) only if it is a page', async (_what, url, policy) => {
    const [first] = await askTwice(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['permissions-policy']).toBe(policy);
  });

  test('a file that is not there answers the 404 page, through onSend too', async () => {
    const before = throughOnSend;
    const answer = await app.inject({ method: 'GET', url: '/missing.js', headers: { host: 'localhost' } });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers[REQUEST_ID_HEADER.toLowerCase()]).toMatch(/^req-/);
    expect(throughOnSend - before).toBe(1);
  });

  test('HEAD of a file says its length and sends no bytes', async () => {
    const answer = await app.inject({ method: 'HEAD', url: HASHED, headers: { host: 'localhost', 'accept-encoding': 'identity' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-length']).toBe(String('console.log(1);\n'.length));
    expect(answer.body).toBe('');
  });
});
