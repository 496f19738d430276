import { startPortico, type RunningPortico } from '../portico-server';
import { INDEX_HTML, makeBuiltSite, rawRequest, SECRET, type RawAnswer } from './built-site';

// A few thousand malformed requests against one running server, over raw
// sockets so nothing normalises them on the way; then a plain request must
// still be served. The mix is drawn from a fixed seed: a failure replays.

const REQUESTS = 3_000;
const PARALLEL = 40;

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TARGETS = [
  '/',
  '/index.html',
  '/config.json',
  '/main.0123456789.js',
  '/mf-manifest.json',
  '//',
  '//a:x',
  '//[',
  '///',
  '//index.html',
  '//evil.example/',
  '//@evil.example',
  '/%',
  '/%%',
  '/%zz',
  '/%c0%af',
  '/%ff',
  '/%e0%a4%a',
  '/%2e%2e/secret.txt',
  '/..%2f..%2fsecret.txt',
  '/../secret.txt',
  '/.git/config',
  '/index.html%3F',
  '/index.html%23',
  '/%2Findex.html',
  '/index.html/',
  '/index.html%3F.0123456789.js',
  '/index.html%00',
  '/escape.0123456789.js',
  '/outside/secret.txt',
  '/a\\b',
  '*',
  'http://evil.example/',
  'index.html',
  '/?%',
  '/?type=%ff%fe',
  '/#frag',
  '/?remote.contact=javascript:alert(1)',
  `/${'a/'.repeat(3_000)}`,
  `/${'%2f'.repeat(1_500)}`,
  `/${'['.repeat(2_000)}`,
  `/${'%'.repeat(2_000)}`,
  `/index.html?${'a=1&'.repeat(2_000)}`,
  `/${'x'.repeat(15_000)}`,
  `/${'y'.repeat(40_000)}`,
  '/\u00e9',
  '/\u0000',
  '/\t',
];

const METHODS = [
  'GET',
  'GET',
  'GET',
  'HEAD',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'PATCH',
  'PROPFIND',
  'M-SEARCH',
  'get',
  'FOO',
  '',
];

const HEADERS: [string, string[]][] = [
  ['Host', ['localhost', '127.0.0.1:1', '[::1]', 'evil.example', 'localhost:8080@evil.example', '[', '[::1', ':80', 'a'.repeat(5_000), '']],
  [
    'Range',
    [
      'bytes=10-5',
      'bytes=-',
      'bytes=0-0,-1',
      'bytes=99999999999999999999-',
      'bytes=-99999999999999999999',
      `bytes=${'0-1,'.repeat(500)}`,
      'bytes=a-b',
      'bytes= 1-2',
      ' bytes=5-1',
      'bytes=0-',
      'bytes=1-2, 3-',
      'bytes=-0',
    ],
  ],
  ['Accept-Encoding', ['br;q=0', 'br;q=abc', 'gzip;q=', '*;q=0.0000001', 'identity;q=0, *;q=0', `${'x;q=1,'.repeat(1_000)}br`, 'br, gzip']],
  ['If-None-Match', ['*', 'W/', '"', `${'"a", '.repeat(500)}"b"`]],
  ['If-Modified-Since', ['garbage', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Sat, 01 Jan 2200 00:00:00 GMT']],
  ['If-Range', ['garbage', '"x"', 'W/"1-1"']],
  ['If-Match', ['*', '"nope"']],
  ['If-Unmodified-Since', ['Thu, 01 Jan 1970 00:00:00 GMT']],
  ['X-Forwarded-Host', ['evil.example', 'localhost', '']],
  ['X-Forwarded-Proto', ['https', 'gopher']],
  ['X-Forwarded-For', ['1.2.3.4, 5.6.7.8', 'not-an-ip']],
  ['Content-Length', ['5', '-1', '99999999999999999999', 'abc']],
  ['Transfer-Encoding', ['chunked', 'gzip, chunked', 'bogus']],
  ['Expect', ['100-continue', 'nothing']],
];

/** Whole requests no generator would make: broken framing, pipelining, bytes. */
const RAW = [
  '\u0000\u0001\u0002\r\n\r\n',
  'GET\r\n\r\n',
  'GET / HTTP/1.1\r\n\r\n',
  'GET / HTTP/9.9\r\nHost: localhost\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: localhost\r\nbroken header\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nzz\r\n',
  'GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  'GET / HTTP/1.1\r\nHost: localhost\r\n\r\nGET //a:x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
  'GET / HTTP/1.0\r\n\r\n',
  `GET / HTTP/1.1\r\nHost: localhost\r\n${'X-A: b\r\n'.repeat(3_000)}\r\n`,
  'GET /\r\nHost: localhost\r\n\r\n',
  'GET / HTTP/1.1\nHost: localhost\n\n',
];

/** `count` requests, most of them to `ownHost` (the server's `localhost:port`). */
function generate(count: number, ownHost: string): string[] {
  const next = random(15);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const requests: string[] = [];
  for (let index = 0; index < count; index++) {
    if (next() < 0.05) {
      requests.push(pick(RAW));
      continue;
    }
    // Real files often, so that Range and the conditional headers reach them.
    const target = next() < 0.4 ? pick(TARGETS.slice(0, 5)) : pick(TARGETS);
    const lines = [`${pick(METHODS)} ${target} HTTP/1.1`];
    const [, hosts] = HEADERS[0]!;
    if (next() < 0.95) lines.push(`Host: ${next() < 0.8 ? ownHost : pick(hosts)}`);
    const [, ranges] = HEADERS[1]!;
    if (next() < 0.3) lines.push(`Range: ${pick(ranges)}`);
    for (const [name, values] of HEADERS.slice(2)) {
      if (next() < 0.08) lines.push(`${name}: ${pick(values)}`);
    }
    lines.push('Connection: close');
    requests.push(`${lines.join('\r\n')}\r\n\r\n`);
  }
  return requests;
}

const site = makeBuiltSite();
const logged: string[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
let running: RunningPortico;

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: (line) => logged.push(line), ssr: false });
});
afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await running.close();
  site.remove();
});

test(`${REQUESTS} malformed requests: no 5xx, no fault logged, every HTML answer protected, then a plain request is served`, async () => {
  const port = running.ports[0]!;
  const requests = generate(REQUESTS, `localhost:${port}`);
  const answers: { request: string; answer: RawAnswer | undefined }[] = [];
  for (let start = 0; start < requests.length; start += PARALLEL) {
    const batch = requests.slice(start, start + PARALLEL);
    answers.push(...(await Promise.all(batch.map(async (request) => ({ request, answer: await rawRequest(port, request, 10_000) })))));
  }

  const summary = (request: string) => JSON.stringify(request.slice(0, 120));
  const problems: string[] = [];
  for (const { request, answer } of answers) {
    if (!answer) continue;
    if (answer.status < 100 || answer.status >= 500) problems.push(`${answer.status} for ${summary(request)}`);
    if (answer.body.includes(SECRET)) problems.push(`a secret for ${summary(request)}`);
    if (answer.headers['content-type']?.startsWith('text/html')) {
      if (!answer.headers['content-security-policy']?.includes("frame-ancestors 'none'")) problems.push(`HTML without CSP for ${summary(request)}`);
      if (answer.headers['x-frame-options'] !== 'DENY') problems.push(`HTML without X-Frame-Options for ${summary(request)}`);
      const pathname = /^\S* (\S*)/.exec(request)?.[1]?.split('?')[0];
      if (answer.status === 200 && pathname !== '/' && pathname !== '/index.html') problems.push(`the page at ${summary(request)}`);
    }
    if (answer.headers['cache-control']?.includes('immutable') && answer.status !== 200 && answer.status !== 206 && answer.status !== 304) {
      problems.push(`immutable ${answer.status} for ${summary(request)}`);
    }
  }
  expect(problems.slice(0, 20)).toEqual([]);
  // Most requests got an answer; a connection Node drops unanswered is the exception.
  expect(answers.filter(({ answer }) => answer !== undefined).length).toBeGreaterThan(REQUESTS * 0.9);
  expect(logged.filter((line) => !line.startsWith('config.json: '))).toEqual([]);
  expect(rejections).toEqual([]);

  const after = await rawRequest(port, `GET / HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`);
  expect(after?.status).toBe(200);
  expect(after?.body).toBe(INDEX_HTML('host'));
}, 30_000);
