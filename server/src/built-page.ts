import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { RACY_STAMP_MS } from '@portico/config-server/config-file';
import { fileStamp, watchedStamp } from '@portico/config-server/file-stamp';
import { joinVary, matchesEtag } from './plain-answer';
import { CACHE_REVALIDATE, chooseEncoding, realFileIn, type Handler } from './static-files';

/** The copies of index.html the build writes, and the encoding each is sent in. */
const COPIES = [
  { encoding: 'identity', suffix: '' },
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

interface Copy {
  body: Buffer;
  /** send's own form (`W/"size-mtime"` in hex), so a tag given by either path matches on the other. */
  etag: string;
  lastModified: string;
}

interface Held {
  stamp: string;
  readAt: number;
  mtimeMs: number;
  copies: Map<string, Copy>;
}

/** What send leaves out of a 304. */
const BODY_FIELDS = ['content-encoding', 'content-language', 'content-length', 'content-range', 'content-type'];

/** A request that asks more than the whole page or a 304 (a range, a precondition): answered by send, from the file. */
const FROM_DISK = ['range', 'if-range', 'if-match', 'if-unmodified-since'];

/**
 * The client-rendered page (the built index.html and its `.br` and `.gz`),
 * answered from memory: what is sent whenever the page is not rendered on
 * the server (PORTICO_SSR=0, no worker, the budget passed: a server under
 * load sends it most). Through send, every such answer looked the file up
 * again and held a file descriptor open until its last byte was taken, so a
 * flood of requests the client never read ran the process out of them
 * (issue 46: 1,359 EMFILE 500s). Read again when a copy's stamp (a `stat`,
 * no descriptor) changes, so a redeploy is served on the next request, and
 * at every request while a copy is newer than RACY_STAMP_MS. A range or a
 * precondition is rare and goes to `disk` (staticFiles), as before.
 */
export function builtPage(
  dir: string,
  options: { pageHeaders: (request: Parameters<Handler>[0], search: string) => Promise<Record<string, string>>; disk: Handler },
): Handler {
  const files = COPIES.map(({ suffix }) => path.join(dir, `index.html${suffix}`));
  let held: Held | undefined;
  /** The reading under way, and the stamp it began at: a request that saw another stamp reads for itself. */
  let reading: { stamp: string; read: Promise<Held | undefined> } | undefined;

  const current = async (): Promise<Held | undefined> => {
    const stamp = files.map((file) => watchedStamp(file)).join('|');
    if (held && held.stamp === stamp && held.readAt - held.mtimeMs >= RACY_STAMP_MS) return held;
    if (reading?.stamp !== stamp) {
      const started = { stamp, read: readCopies(dir, files, stamp) };
      reading = started;
      void started.read.finally(() => {
        if (reading === started) reading = undefined;
      });
    }
    const read = await reading.read;
    // A reading that began before a change is not kept: the next request reads again.
    if (read && read.stamp === files.map(fileStamp).join('|')) held = read;
    return read;
  };

  return async (request, next) => {
    const req = request.raw;
    if (FROM_DISK.some((name) => req.headers[name] !== undefined)) return options.disk(request, next);
    const page = await current();
    const identity = page?.copies.get('identity');
    if (!page || !identity) return options.disk(request, next);
    const encoding = chooseEncoding(
      req,
      [...page.copies.keys()].filter((name) => name !== 'identity'),
    );
    const copy = page.copies.get(encoding) ?? identity;
    const search = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const policy = await options.pageHeaders(request, search);
    const vary = page.copies.size > 1 ? joinVary(policy.Vary, 'Accept-Encoding') : policy.Vary;
    const headers: Record<string, string> = {
      'Cache-Control': CACHE_REVALIDATE,
      ...policy,
      ...(vary === undefined ? {} : { Vary: vary }),
      'Accept-Ranges': 'bytes',
      ETag: copy.etag,
      'Last-Modified': copy.lastModified,
    };
    const fresh = !/no-cache/i.test(String(req.headers['cache-control'] ?? '')) && matchesEtag(req.headers['if-none-match'], copy.etag);
    // As send answers a 304: without the fields that describe a body.
    if (fresh) return { status: 304, headers: withoutBodyFields(headers) };
    headers['Content-Type'] = 'text/html; charset=utf-8';
    if (copy !== identity) headers['Content-Encoding'] = encoding;
    headers['Content-Length'] = String(copy.body.length);
    return { status: 200, headers, body: copy.body };
  };
}

function withoutBodyFields(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !BODY_FIELDS.includes(name.toLowerCase())));
}

/** Each copy there is, inside `dir` (a symlink out of it is no copy), with its tag; undefined without index.html. */
async function readCopies(dir: string, files: readonly string[], stamp: string): Promise<Held | undefined> {
  const readAt = Date.now();
  let root: string;
  try {
    root = await realpath(dir);
  } catch {
    return undefined;
  }
  const copies = new Map<string, Copy>();
  // The newest copy decides how long the stamp alone is not trusted.
  let newest = 0;
  await Promise.all(
    COPIES.map(async ({ encoding }, index) => {
      const real = await realFileIn(root, files[index]!);
      if (real === undefined) return;
      try {
        const [stats, body] = await Promise.all([stat(real), readFile(real)]);
        // Written while read: not this copy; the stamp taken after says so.
        if (stats.size !== body.length) return;
        newest = Math.max(newest, stats.mtimeMs);
        const etag = `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`;
        copies.set(encoding, { body, etag, lastModified: stats.mtime.toUTCString() });
      } catch {
        // Gone between the look and the read (a redeploy): as if it were not there.
      }
    }),
  );
  return { stamp, readAt, mtimeMs: newest, copies };
}
