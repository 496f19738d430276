import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { httpRoot } from '@portico/platform/http';
import { appFiles } from '../http/plugins/app-files';
import { pageHeaders } from '../security-headers';
import { staticFiles } from '../static-files';

// A hashed file is kept in memory once served (ImmutableFiles): these
// remove it from disk after its first answer, so an answer that still comes
// can only have come from memory, and check that only the plain 200 of a
// hashed file is kept, in every encoding its copies offer.

const HASHED = '/main.0123456789.js';
const SOURCE = 'console.log("kept");\n';

describe('hashed files kept in memory', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeEach(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portico-immutable-'));
    writeFileSync(path.join(dist, HASHED.slice(1)), SOURCE);
    writeFileSync(path.join(dist, `${HASHED.slice(1)}.br`), brotliCompressSync(SOURCE));
    writeFileSync(path.join(dist, `${HASHED.slice(1)}.gz`), gzipSync(SOURCE));
    writeFileSync(path.join(dist, 'remoteEntry.js'), 'var entry;');
    const headersOfPage = () => Promise.resolve(pageHeaders([]));
    app = Fastify();
    await app.register(httpRoot, { trustProxy: false });
    await app.register(appFiles, { files: staticFiles(dist, { crossOrigin: false, pageHeaders: headersOfPage }), pageHeaders: headersOfPage });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const ask = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } });
  const removeAll = (name: string) => {
    for (const suffix of ['', '.br', '.gz']) rmSync(path.join(dist, name.slice(1) + suffix), { force: true });
  };

  test('once served, a hashed file is answered the same (bytes, ETag, headers) after it is gone from disk', async () => {
    const first = await ask(HASHED, { 'accept-encoding': 'identity' });
    removeAll(HASHED);
    const again = await ask(HASHED, { 'accept-encoding': 'identity' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(SOURCE);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(again.headers['x-content-type-options']).toBe('nosniff');
  });

  test('each encoding is kept as chosen: a gzip-only client after a brotli one gets the gzip copy, not the plain file', async () => {
    expect((await ask(HASHED, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('br');
    expect((await ask(HASHED, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    removeAll(HASHED);
    const brotli = await ask(HASHED, { 'accept-encoding': 'br, gzip' });
    const gzip = await ask(HASHED, { 'accept-encoding': 'gzip' });
    expect([brotli.statusCode, brotli.headers['content-encoding']]).toEqual([200, 'br']);
    expect([gzip.statusCode, gzip.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gzip.rawPayload).toEqual(gzipSync(SOURCE));
    // The plain file was never asked for: not kept, so it is looked for on disk, and is gone.
    expect((await ask(HASHED, { 'accept-encoding': 'identity' })).statusCode).toBe(404);
  });

  test('a range, a revalidation and a HEAD are answered from disk, with the ETag the kept answer carries', async () => {
    const first = await ask(HASHED, { 'accept-encoding': 'identity' });
    const range = await ask(HASHED, { 'accept-encoding': 'identity', range: 'bytes=0-6' });
    expect([range.statusCode, range.body]).toEqual([206, SOURCE.slice(0, 7)]);
    expect((await ask(HASHED, { 'accept-encoding': 'identity', 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
    unlinkSync(path.join(dist, HASHED.slice(1)));
    expect((await ask(HASHED, { 'accept-encoding': 'identity', range: 'bytes=0-6' })).statusCode).toBe(404);
    const head = await app.inject({ method: 'HEAD', url: HASHED, headers: { host: 'localhost', 'accept-encoding': 'identity' } });
    expect(head.statusCode).toBe(404);
  });

  test('a file without a hash in its name is read afresh: removed, it is gone', async () => {
    expect((await ask('/remoteEntry.js')).statusCode).toBe(200);
    rmSync(path.join(dist, 'remoteEntry.js'));
    expect((await ask('/remoteEntry.js')).statusCode).toBe(404);
  });
});
