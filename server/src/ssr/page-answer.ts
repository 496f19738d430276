import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { matchesEtag } from '../plain-answer';
import { chooseEncoding } from '../static-files';
import { DATA_OWN_HEADERS, type Answer } from '@portico/platform/http';
import { LRUCache } from 'lru-cache';

/** What the page is sent in, best first: the client's q-values decide, then this order. */
export const PAGE_ENCODINGS = ['br', 'gzip'] as const;
export type PageEncoding = (typeof PAGE_ENCODINGS)[number] | 'identity';

/**
 * Brotli 5: about as small as gzip -9 in a fraction of the time, on a page
 * compressed once per cache entry but, with the cache off, once per request
 * (docs/decisions.md has the measurements).
 */
export const PAGE_BROTLI_QUALITY = 5;
const PAGE_GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Brotli 11 for a page the server keeps, made once in the background after
 * its first answers went out at PAGE_BROTLI_QUALITY (page-cache.ts): about
 * 9 % smaller, at some 80 times the time (80 ms for the 45 KB English page
 * here). What that buys: the page and its headers within TCP's first window
 * (10 segments of 1,460 B), one round trip fewer for every later visitor on
 * a slow network (docs/performance.md#the-page-in-the-first-round-trip).
 */
export const KEPT_PAGE_BROTLI_QUALITY = 11;

const brotliAt = (html: Buffer, quality: number) =>
  brotli(html, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length },
  });

/** On the thread pool, not the event loop: other visitors are answered meanwhile. */
export function compressPage(html: Buffer, encoding: PageEncoding): Promise<Buffer> {
  if (encoding === 'br') return brotliAt(html, PAGE_BROTLI_QUALITY);
  if (encoding === 'gzip') return gzipped(html, { level: PAGE_GZIP_LEVEL });
  return Promise.resolve(html);
}

/** A kept page's smallest brotli (KEPT_PAGE_BROTLI_QUALITY), on the thread pool. */
export function compressKeptPage(html: Buffer): Promise<Buffer> {
  return brotliAt(html, KEPT_PAGE_BROTLI_QUALITY);
}

/** A composed HTML page, ready to be sent in whichever encoding a visitor accepts. */
export interface EncodedPage {
  /** The identity ETag's value; an encoding's is this with the encoding's name added, weak (its bytes may be made again smaller). */
  hash: string;
  /** The page in `encoding` (`compressPage`), made once by whoever keeps the page. */
  bodyOf: (encoding: PageEncoding) => Promise<Buffer>;
}

/**
 * The answer to a page the server composed: compressed as the visitor's
 * Accept-Encoding allows, revalidated on every use (no-cache and an ETag
 * per encoding, 304 when it matches), with `headers` (the page's policy)
 * and Accept-Encoding added to their Vary. The one way the server-rendered
 * page is answered, so that anything else serving a composed page (the
 * benchmark's single-bundle baseline) serves it the same way. Its headers
 * are the same object for every visitor of a cached page (answerHeaders).
 */
export async function answerPage(req: IncomingMessage, page: EncodedPage, headers: Readonly<Record<string, string>>): Promise<Answer> {
  const encoding = chooseEncoding(req, PAGE_ENCODINGS) as PageEncoding;
  // A compressed copy's bytes may change (a kept page's brotli is made smaller later) while the page they decode to does not: a weak tag.
  const etag = encoding === 'identity' ? `"${page.hash}"` : `W/"${page.hash}-${encoding}"`;
  if (matchesEtag(req.headers['if-none-match'], etag)) return { status: 304, headers: answerHeaders(headers, etag, undefined, undefined) };
  const body = await page.bodyOf(encoding);
  return { status: 200, headers: answerHeaders(headers, etag, encoding, body.length), body };
}

/** The answer's headers, made once per page headers object, ETag, encoding and length: the same for every visitor of a cached page. */
function answerHeaders(
  headers: Readonly<Record<string, string>>,
  etag: string,
  encoding: PageEncoding | undefined,
  length: number | undefined,
): Record<string, string> {
  let made = answersMade.get(headers);
  // Pages come and go: the least recently answered are forgotten first.
  if (!made) answersMade.set(headers, (made = new LRUCache({ max: 64 })));
  const key = `${etag} ${encoding ?? ''} ${length ?? ''}`;
  let answer = made.get(key);
  if (!answer) {
    answer = {
      ...headers,
      Vary: [headers.Vary, 'Accept-Encoding'].filter(Boolean).join(', '),
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      ETag: etag,
      ...(encoding === undefined || encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
      ...(length === undefined ? {} : { 'Content-Length': String(length) }),
    };
    made.set(key, answer);
  }
  return answer;
}

const answersMade = new WeakMap<Readonly<Record<string, string>>, LRUCache<string, Record<string, string>>>();

/**
 * A scoped stylesheet's headers in `encoding` (its bodies, made once per
 * stylesheet), made once per copy: the same object for every request of it.
 */
export function stylesheetHeaders(
  bodies: Readonly<Record<PageEncoding, Buffer>>,
  encoding: PageEncoding,
  cacheControl: string,
): Readonly<Record<string, string>> {
  let made = stylesheetsMade.get(bodies);
  if (!made) stylesheetsMade.set(bodies, (made = new Map()));
  let headers = made.get(encoding);
  if (!headers) {
    headers = {
      ...DATA_OWN_HEADERS,
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': cacheControl,
      Vary: 'Accept-Encoding',
      ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
      'Content-Length': String(bodies[encoding].length),
    };
    made.set(encoding, headers);
  }
  return headers;
}

const stylesheetsMade = new WeakMap<Readonly<Record<PageEncoding, Buffer>>, Map<PageEncoding, Record<string, string>>>();
