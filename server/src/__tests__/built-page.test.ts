import fs, { utimesSync, writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import fsPromises from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startPortico, type RunningPortico } from '../portico-server';
import { httpRequest, INDEX_HTML, makeBuiltSite, portOf, rawRequest } from './built-site';

// The client-rendered page (what is sent whenever the page is not rendered
// on the server) answered from memory (issue 46, item 4): through send,
// every answer looked the file up and opened it again. Checked to fail with
// the pages route given staticFiles again: 40 opens of index.html for 40
// answers.

const site = makeBuiltSite();
afterAll(() => site.remove());
const dist = path.join(site.root, 'host/dist');
const index = path.join(dist, 'index.html');

let running: RunningPortico;
let port: number;
beforeAll(async () => {
  // An hour old: its stamp alone is trusted (a file modified a moment ago is read again at every request).
  const hourAgo = new Date(Date.now() - 3_600_000);
  writeFileSync(`${index}.gz`, gzipSync(INDEX_HTML('host')));
  for (const file of [index, `${index}.gz`]) utimesSync(file, hourAgo, hourAgo);
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', ssr: false, log: silentLogger });
  port = portOf(running.url);
});
afterAll(() => running.close());
afterEach(() => jest.restoreAllMocks());

/** Every open or whole-file read of the built index.html (and its copies) from now on. */
function countOpens(): () => number {
  const opened: string[] = [];
  const watch = (name: string, file: unknown) => {
    if (String(file).startsWith(index)) opened.push(name);
  };
  const open = fs.open;
  jest.spyOn(fs, 'open').mockImplementation(((file: fs.PathLike, ...rest: unknown[]) => {
    watch('open', file);
    return (open as (...args: unknown[]) => void)(file, ...rest);
  }) as typeof fs.open);
  const readFile = fsPromises.readFile;
  jest.spyOn(fsPromises, 'readFile').mockImplementation(((file: fs.PathLike, ...rest: unknown[]) => {
    watch('readFile', file);
    return (readFile as (...args: unknown[]) => Promise<Buffer>)(file, ...rest);
  }) as typeof fsPromises.readFile);
  return () => opened.length;
}

const page = (headers: Record<string, string> = {}) => rawRequest(port, httpRequest('/', { host: `127.0.0.1:${port}`, headers }));

test('the page is answered from memory: the file is read once, not at every request', async () => {
  expect((await page())?.status).toBe(200);
  const opens = countOpens();
  for (let visit = 0; visit < 20; visit++) {
    const plain = await page();
    expect(plain?.body).toBe(INDEX_HTML('host'));
    const zipped = await page({ 'Accept-Encoding': 'gzip' });
    expect(zipped?.headers['content-encoding']).toBe('gzip');
  }
  expect(opens()).toBe(0);
});

test('its ETag is revalidated (304), and a range still gets the bytes asked for', async () => {
  const first = await page();
  expect(first?.headers.etag).toMatch(/^W\/".+"$/);
  const again = await page({ 'If-None-Match': first!.headers.etag! });
  expect(again?.status).toBe(304);
  expect(again?.headers['content-security-policy']).toBe(first?.headers['content-security-policy']);
  expect(again?.headers['content-type']).toBeUndefined();
  const range = await page({ Range: 'bytes=0-8' });
  expect(range?.status).toBe(206);
  expect(range?.body).toBe(INDEX_HTML('host').slice(0, 9));
});

test('a new build written over it is served on the next request', async () => {
  expect((await page())?.body).toBe(INDEX_HTML('host'));
  const redeployed = '<!doctype html><title>host, redeployed</title>';
  writeFileSync(index, redeployed);
  expect((await page())?.body).toBe(redeployed);
  // Its gzip copy was not rebuilt: the older copy is still what a gzip client gets until it is (as send did).
  expect((await page({ 'Accept-Encoding': 'gzip' }))?.headers['content-encoding']).toBe('gzip');
});
