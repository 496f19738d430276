import { connect } from 'node:net';

/**
 * Malformed and hostile HTTP requests, as whole bytes (no client normalises
 * `//`, `%2F` or the Host header on the way), and the raw socket that sends
 * one and reads its answer. One corpus for every port a test sweeps (the
 * page's, the control API's), drawn from a fixed seed so a failure replays.
 */

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Request targets no client should send: broken encodings, escapes, absolute forms, huge paths. */
export const HOSTILE_TARGETS: readonly string[] = [
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

export const METHODS: readonly string[] = [
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

/** Hosts, the first field (sent with most requests); then Range; then fields each sent now and then. */
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
export const RAW_REQUESTS: readonly string[] = [
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

export interface HostileRequestOptions {
  /** The server's own `host:port`, which most requests name. */
  ownHost: string;
  /** Paths that exist on the server, asked for often so the headers reach real answers. */
  realTargets: readonly string[];
  seed?: number;
  /** More fields of the server's own (its credentials, its origins), each with the share of requests that carry one. */
  fields?: readonly { name: string; values: readonly string[]; share: number }[];
  /** Bodies sent with some requests (with their length), drawn only when given. */
  bodies?: readonly string[];
}

/** `count` requests, most of them to `ownHost`. */
export function hostileRequests(count: number, options: HostileRequestOptions): string[] {
  const next = seededRandom(options.seed ?? 15);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const targets = [...options.realTargets, ...HOSTILE_TARGETS];
  const requests: string[] = [];
  for (let index = 0; index < count; index++) {
    if (next() < 0.05) {
      requests.push(pick(RAW_REQUESTS));
      continue;
    }
    const target = next() < 0.4 ? pick(options.realTargets) : pick(targets);
    const lines = [`${pick(METHODS)} ${target} HTTP/1.1`];
    const [, hosts] = HEADERS[0]!;
    if (next() < 0.95) lines.push(`Host: ${next() < 0.8 ? options.ownHost : pick(hosts)}`);
    const [, ranges] = HEADERS[1]!;
    if (next() < 0.3) lines.push(`Range: ${pick(ranges)}`);
    for (const [name, values] of HEADERS.slice(2)) {
      if (next() < 0.08) lines.push(`${name}: ${pick(values)}`);
    }
    for (const { name, values, share } of options.fields ?? []) {
      if (next() < share) lines.push(`${name}: ${pick(values)}`);
    }
    lines.push('Connection: close');
    const body = options.bodies && next() < 0.5 ? pick(options.bodies) : undefined;
    if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    requests.push(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
  }
  return requests;
}

export interface RawAnswer {
  status: number;
  /** Lower-case names; repeated fields joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends a request byte for byte over a socket to 127.0.0.1:`port` and reads
 * one answer: until its Content-Length is in, or the server closes.
 * Undefined when nothing came back within `timeoutMs`.
 */
export function sendRaw(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer | undefined> {
  const bodyless = /^HEAD /.test(String(request));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const received = () => parseAnswer(Buffer.concat(chunks).toString('latin1'));
    const socket = connect({ host: '127.0.0.1', port });
    const finish = () => {
      socket.destroy();
      resolve(received());
    };
    socket.setTimeout(timeoutMs, finish);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = received();
      if (!answer) return;
      const length = Number(answer.headers['content-length'] ?? NaN);
      const complete = bodyless || answer.status === 304 || Buffer.byteLength(answer.body, 'latin1') >= length;
      if (complete) finish();
    });
    // A server may reset a connection it refuses; what it said before counts.
    socket.on('error', finish);
    socket.on('close', finish);
    // Not end(): a server may drop a half-closed connection before its answer is ready.
    socket.write(request);
  });
}

function parseAnswer(received: string): RawAnswer | undefined {
  // An interim answer (`100 Continue` to an Expect) is not the answer: the one after it is.
  const raw = received.replace(/^(HTTP\/1\.[01] 1(0[02-9]|[1-9]\d)[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: raw.slice(split + 4) };
}

/** Sends `requests` `parallel` at a time, each answer beside its request. */
export async function sendAll(
  port: number,
  requests: readonly string[],
  options: { parallel: number; timeoutMs: number },
): Promise<{ request: string; answer: RawAnswer | undefined }[]> {
  const answers: { request: string; answer: RawAnswer | undefined }[] = [];
  for (let start = 0; start < requests.length; start += options.parallel) {
    const batch = requests.slice(start, start + options.parallel);
    answers.push(...(await Promise.all(batch.map(async (request) => ({ request, answer: await sendRaw(port, request, options.timeoutMs) })))));
  }
  return answers;
}
