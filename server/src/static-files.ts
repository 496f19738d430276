import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { contentType } from 'mime-types';
import Negotiator from 'negotiator';
import send from '@fastify/send';
import type { FastifyRequest } from 'fastify';
import { joinVary, plainAnswer } from './plain-answer';
import { type Answer } from '@portico/platform/http';
import { asksWholeFile, ImmutableFiles } from './immutable-files';
import { CROSS_ORIGIN_HEADERS } from './security-headers';
import { LRUCache } from 'lru-cache';

/** Names webpack gives content-hashed files: `main.0123456789.js`. */
export const HASHED_FILE = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/** A hashed file never changes: a new build gives it a new name. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, remoteEntry.js, mf-manifest.json...: kept, but checked against the ETag on every use. */
export const CACHE_REVALIDATE = 'no-cache';

function cacheControlFor(pathname: string): string {
  return HASHED_FILE.test(pathname) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

/**
 * The only spelling of a built file: segments of the characters webpack names
 * files with, none starting with a dot, no empty segment, no percent-encoding.
 * Every file of a build matches; `..`, hidden files, `//`, a trailing slash,
 * `%3F`, `%2F`, backslashes and NUL bytes cannot.
 */
const BUILT_PATH = /^(\/[A-Za-z0-9_~+@-][A-Za-z0-9._~+@-]*)+$/;

export interface RequestTarget {
  /** The path as the client wrote it, still percent-encoded. */
  readonly pathname: string;
  /** `?…`, or empty. */
  readonly search: string;
}

/**
 * The path and query of a request, or undefined when the target is malformed:
 * not a path (`*`, `http://…`), refused by a URL parser (`//`, `//a:x`, `//[`)
 * or with broken percent-encoding (`/%`, `/%e0%a4%a`).
 */
export function requestTarget(url: string | undefined): RequestTarget | undefined {
  if (url === undefined) return undefined;
  // One request asks for its target several times in a row (the checks, the page, its cohort): the last one is kept.
  if (lastTarget?.url === url) return lastTarget.target;
  const target = readTarget(url);
  lastTarget = { url, target };
  return target;
}

let lastTarget: { url: string; target: RequestTarget | undefined } | undefined;

function readTarget(url: string): RequestTarget | undefined {
  if (!url.startsWith('/')) return undefined;
  if (!URL.canParse(url, 'http://portico.invalid')) return undefined;
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  try {
    decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  return { pathname, search: query === -1 ? '' : url.slice(query) };
}

/** The built file a path names (`/` is `/index.html`), or undefined for any other spelling. */
function builtPath(pathname: string): string | undefined {
  if (pathname === '/') return '/index.html';
  return BUILT_PATH.test(pathname) ? pathname : undefined;
}

/** Errors of a lookup that mean "no such file here", not a fault of the server. */
const NOT_A_FILE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG', 'EACCES']);

/**
 * The real path of `file` when it is a regular file inside `root` (itself a
 * real path), following symlinks; undefined when it is missing, a folder, or
 * a symlink leads out of `root`.
 */
export async function realFileIn(root: string, file: string): Promise<string | undefined> {
  try {
    const real = await realpath(file);
    if (!real.startsWith(root + path.sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch (error) {
    if (NOT_A_FILE.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

/** The precompressed copies the build writes beside each text file, best first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

interface Copy {
  encoding: string;
  real: string | undefined;
}

async function copyIn(root: string, file: string, { encoding, suffix }: (typeof PRECOMPRESSED)[number]): Promise<Copy> {
  return { encoding, real: await realFileIn(root, path.join(root, file + suffix)) };
}

const EVERY_ENCODING = PRECOMPRESSED.map((copy) => copy.encoding);

/**
 * The precompressed copy to send, if any, and the copies found. The copy the
 * client would choose were every copy there is looked up first: when it is
 * on disk, no other copy could be chosen over it, so the others are not
 * looked up (a browser's request looks up two files, not three); when it is
 * not, the others are, and the choice is made among them.
 */
async function copyToServe(req: IncomingMessage, root: string, file: string): Promise<{ onDisk: Copy[]; encoding: string }> {
  const favourite = PRECOMPRESSED.find((copy) => copy.encoding === chooseEncoding(req, EVERY_ENCODING));
  if (favourite) {
    const copy = await copyIn(root, file, favourite);
    if (copy.real !== undefined) return { onDisk: [copy], encoding: copy.encoding };
  }
  const others = await Promise.all(PRECOMPRESSED.filter((copy) => copy !== favourite).map((copy) => copyIn(root, file, copy)));
  const onDisk = others.filter((copy) => copy.real !== undefined);
  return {
    onDisk,
    encoding: chooseEncoding(
      req,
      onDisk.map((copy) => copy.encoding),
    ),
  };
}

/**
 * negotiator 1.x breaks a tie of q-values by a preference (`gzip, br` both at
 * q=1 gets br); @types/negotiator 0.6 predates that option.
 */
interface EncodingNegotiator {
  encodings(available: readonly string[], options: { preferred: readonly string[] }): string[];
}

/** The encoding to send among those available: the client's q-values first (`br;q=0` is a refusal), then ours (the order given). */
export function chooseEncoding(req: IncomingMessage, available: readonly string[]): string {
  // Browsers send a handful of Accept-Encoding values: each is negotiated once per set of encodings.
  const accepted = req.headers['accept-encoding'];
  const key = `${available.join(',')}\n${accepted ?? ''}`;
  const known = accepted === undefined || accepted.length <= 200 ? choices.get(key) : undefined;
  if (known !== undefined) return known;
  const preferred = [...available, 'identity'];
  const negotiator = new Negotiator(req) as unknown as EncodingNegotiator;
  // Nothing acceptable at all (`identity;q=0`): the plain file, as nginx does.
  const chosen = negotiator.encodings(preferred, { preferred })[0] ?? 'identity';
  if (accepted === undefined || accepted.length <= 200) {
    // Clients choose the header: bounded (choices).
    choices.set(key, chosen);
  }
  return chosen;
}

const choices = new LRUCache<string, string>({ max: 256 });

/** What a file handler is given of a request: Fastify's request on the page server, the bare one wrapped elsewhere (the console's files). */
export interface FileRequest {
  readonly raw: IncomingMessage;
}

/** Answers a request for a file, or with `next`'s answer (the 404 page) when there is no such file. */
export type Handler<R extends FileRequest = FastifyRequest> = (request: R, next: () => Promise<Answer> | Answer) => Promise<Answer>;

export interface StaticFilesOptions<R extends FileRequest = FastifyRequest> {
  /** A remote's files are loaded by the host's page, from another origin. */
  crossOrigin: boolean;
  /**
   * Headers of an HTML page (index.html: its Content-Security-Policy), worked
   * out per request; `search` is the query of the address the page was asked for.
   */
  pageHeaders: (request: R, search: string) => Promise<Record<string, string>>;
}

/** The fields of ours that describe a file's body, which a 304 leaves out (as send leaves out its own). */
const BODY_FIELDS = new Set(['Content-Type', 'Content-Encoding']);

/**
 * Serves one dist/ folder. Each request looks the file up afresh, so a
 * redeploy into dist/ (or a dist/ symlink switched to a new release) is served
 * at once, without a restart. `@fastify/send` (send's fork that hands back
 * the answer instead of writing it) answers the conditional requests (ETag,
 * 304) and ranges (206, 416); the `.br` or `.gz` the build made beside a file
 * is chosen here, honouring q-values. Our headers go with every answer, a 304
 * too: hashed files are immutable for a year, everything else is revalidated
 * on every use. The file's bytes are a stream the route sends (reply.send).
 */
export function staticFiles<R extends FileRequest = FastifyRequest>(dir: string, options: StaticFilesOptions<R>): Handler<R> {
  const immutable = new ImmutableFiles(dir);
  return async (request, next) => {
    const req = request.raw;
    const target = requestTarget(req.url);
    const file = target && builtPath(target.pathname);
    if (!target || !file) return next();
    const keep = HASHED_FILE.test(file) && asksWholeFile(req.method, req.headers);
    const kept = keep ? immutable.answer(file, (available) => chooseEncoding(req, available)) : undefined;
    if (kept) return kept;
    // Before anything is looked up: a change told from here on is one this reading may have missed.
    const generation = keep ? immutable.begin(file) : undefined;

    let root: string;
    try {
      root = await realpath(dir);
    } catch {
      // dist/ is gone for a moment (a redeploy replacing the folder).
      return next();
    }
    const identity = await realFileIn(root, path.join(root, file));
    if (!identity) return next();
    const { onDisk, encoding } = await copyToServe(req, root, file);
    const served = onDisk.find((copy) => copy.encoding === encoding)?.real ?? identity;

    const type = contentType(path.extname(file)) || 'application/octet-stream';
    const page = type.startsWith('text/html') ? await options.pageHeaders(request, target.search) : undefined;
    const vary = onDisk.length > 0 ? joinVary(page?.Vary, 'Accept-Encoding') : page?.Vary;
    const ours: Record<string, string> = {
      ...(options.crossOrigin ? CROSS_ORIGIN_HEADERS : {}),
      'Cache-Control': cacheControlFor(file),
      'Content-Type': type,
      ...(served !== identity ? { 'Content-Encoding': encoding } : {}),
      ...page,
      ...(vary === undefined ? {} : { Vary: vary }),
    };

    const relative = path.relative(root, served).split(path.sep).map(encodeURIComponent).join('/');
    const sent = await send(req, relative, { root, index: false, cacheControl: false, contentType: false, etag: true, lastModified: true });
    if (sent.type !== 'file') {
      sent.stream.destroy();
      const status = sent.type === 'error' ? sent.statusCode : 404;
      // The file went away between our look and send's (a redeploy).
      if (status === 404) return next();
      if (status === 416) return plainAnswer(416, 'Range not satisfiable', pick(sent.headers, 'Content-Range'));
      if (status === 412) return plainAnswer(412, 'Precondition failed');
      throw (sent as { metadata: { error: Error } }).metadata.error;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(ours)) if (sent.statusCode !== 304 || !BODY_FIELDS.has(name)) headers[name] = value;
    for (const [name, value] of Object.entries(sent.headers)) headers[name] = String(value);
    if (sent.statusCode === 304 || req.method === 'HEAD') {
      sent.stream.destroy();
      return { status: sent.statusCode, headers };
    }
    const answer = { status: sent.statusCode, headers, body: sent.stream };
    return keep ? immutable.keep(file, await encodingsOnDisk(root, file), encoding, answer, generation) : answer;
  };
}

/** Every encoding `file` has a copy of, best first (copyToServe may have looked for one only): what a kept file's later requests choose among. */
async function encodingsOnDisk(root: string, file: string): Promise<string[]> {
  const copies = await Promise.all(PRECOMPRESSED.map((copy) => copyIn(root, file, copy)));
  return copies.filter((copy) => copy.real !== undefined).map((copy) => copy.encoding);
}

function pick(headers: Readonly<Record<string, string>>, name: string): Record<string, string> {
  return headers[name] === undefined ? {} : { [name]: headers[name] };
}
