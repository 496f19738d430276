import fs, { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { httpRoot } from '@portico/platform/http';
import { eventually } from '@portico/testing/eventually';
import { appFiles } from '../http/plugins/app-files';
import { pageHeaders } from '../security-headers';
import { staticFiles } from '../static-files';

// A hashed file is kept in memory once served (ImmutableFiles): the disk
// is watched through spies on what the file handler and @fastify/send call
// (realpath, createReadStream), and a change in the folder lets go of what
// is kept. Only the plain 200 of a hashed file is kept, in every encoding
// its copies offer.

const HASHED = '/main.0123456789.js';
const SOURCE = 'console.log("kept");\n';

describe('hashed files kept in memory', () => {
  let parent: string;
  let dist: string;
  let app: FastifyInstance;

  beforeEach(async () => {
    // A parent of its own: the handler watches the folder's parent too, and a shared /tmp tells of every other test's folders.
    parent = mkdtempSync(path.join(tmpdir(), 'portico-immutable-'));
    dist = path.join(parent, 'dist');
    mkdirSync(dist);
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
    rmSync(parent, { recursive: true, force: true });
  });

  const ask = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } });
  const removeAll = (name: string) => {
    for (const suffix of ['', '.br', '.gz']) rmSync(path.join(dist, name.slice(1) + suffix), { force: true });
  };

  /** How many times the disk is asked for the file while `run` runs. */
  async function diskReads(run: () => Promise<unknown>): Promise<number> {
    const looks = jest.spyOn(fsPromises, 'realpath');
    const reads = jest.spyOn(fs, 'createReadStream');
    try {
      await run();
      return looks.mock.calls.length + reads.mock.calls.length;
    } finally {
      looks.mockRestore();
      reads.mockRestore();
    }
  }

  test('once served, a hashed file is answered from memory: the same bytes, ETag and headers, without the disk', async () => {
    const first = await ask(HASHED, { 'accept-encoding': 'identity' });
    let again = first;
    expect(await diskReads(async () => (again = await ask(HASHED, { 'accept-encoding': 'identity' })))).toBe(0);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(SOURCE);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(again.headers['x-content-type-options']).toBe('nosniff');
  });

  test('each encoding is kept as chosen: a gzip-only client after a brotli one gets the gzip copy, not the plain file', async () => {
    expect((await ask(HASHED, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('br');
    expect((await ask(HASHED, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    const answers: Awaited<ReturnType<typeof ask>>[] = [];
    const reads = await diskReads(async () => {
      answers.push(await ask(HASHED, { 'accept-encoding': 'br, gzip' }), await ask(HASHED, { 'accept-encoding': 'gzip' }));
    });
    expect(reads).toBe(0);
    expect(answers.map((answer) => [answer.statusCode, answer.headers['content-encoding']])).toEqual([
      [200, 'br'],
      [200, 'gzip'],
    ]);
    expect(answers[1]!.rawPayload).toEqual(gzipSync(SOURCE));
  });

  test('a file changed in place (a tampered copy, then a redeploy putting the right bytes back) is answered with its new bytes once the folder tells of it', async () => {
    expect((await ask(HASHED, { 'accept-encoding': 'identity' })).body).toBe(SOURCE);
    writeFileSync(path.join(dist, HASHED.slice(1)), 'tampered();\n');
    await eventually(async () => expect((await ask(HASHED, { 'accept-encoding': 'identity' })).body).toBe('tampered();\n'), { what: 'the change told' });
    writeFileSync(path.join(dist, HASHED.slice(1)), SOURCE);
    await eventually(async () => expect((await ask(HASHED, { 'accept-encoding': 'identity' })).body).toBe(SOURCE), { what: 'the redeploy told' });
    // Removed: gone, not answered from memory.
    removeAll(HASHED);
    await eventually(async () => expect((await ask(HASHED, { 'accept-encoding': 'identity' })).statusCode).toBe(404), { what: 'the removal told' });
  });

  test('a hashed file in a subfolder (not the watched folder itself) is read from disk at each request', async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets/banner.0123456789.svg'), '<svg/>');
    await ask('/assets/banner.0123456789.svg');
    expect(await diskReads(() => ask('/assets/banner.0123456789.svg'))).toBeGreaterThan(0);
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

test('a dist/ that is a link switched to another release: the switch is told, and so is a change in the folder it now leads to', async () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'portico-immutable-link-'));
  for (const release of ['one', 'two']) {
    mkdirSync(path.join(parent, release));
    writeFileSync(path.join(parent, release, HASHED.slice(1)), `release("${release}");\n`);
  }
  symlinkSync('one', path.join(parent, 'dist'));
  const headersOfPage = () => Promise.resolve(pageHeaders([]));
  const app = Fastify();
  await app.register(httpRoot, { trustProxy: false });
  const files = staticFiles(path.join(parent, 'dist'), { crossOrigin: false, pageHeaders: headersOfPage });
  await app.register(appFiles, { files, pageHeaders: headersOfPage });
  const body = async () => (await app.inject({ method: 'GET', url: HASHED, headers: { host: 'localhost', 'accept-encoding': 'identity' } })).body;
  try {
    expect(await body()).toBe('release("one");\n');
    symlinkSync('two', path.join(parent, 'dist-next'));
    renameSync(path.join(parent, 'dist-next'), path.join(parent, 'dist'));
    await eventually(async () => expect(await body()).toBe('release("two");\n'), { what: 'the switch told' });
    writeFileSync(path.join(parent, 'two', HASHED.slice(1)), 'release("two, mended");\n');
    await eventually(async () => expect(await body()).toBe('release("two, mended");\n'), { what: 'the change behind the link told' });
  } finally {
    await app.close();
    rmSync(parent, { recursive: true, force: true });
  }
});
