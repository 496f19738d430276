import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { PageRequest } from '@portico/render/protocol';
import { parseConfig } from '@portico/shared-config/config';
import { languageFromSearch, LANGUAGES, SECTION_IDS, type SectionId } from '@portico/shared-config/contract';
import type { ConfigAnswer } from '@portico/shared-config/node-config';
import { clearFileHeaders, matchesEtag } from '../plain-answer';
import { chooseEncoding, requestTarget } from '../static-files';
import { ManifestWatcher } from './manifest-watcher';
import { PageCache } from './page-cache';
import { RenderWorkers, type RenderedPage } from './render-workers';

/** The render worker the host's build writes (webpack/src/render-worker-build.ts). */
export const RENDER_WORKER_PATH = 'host/dist-node/render-worker.js';

export const DEFAULT_SSR_BUDGET_MS = 400;
export const DEFAULT_SSR_HEAP_MB = 128;
/** How many pages are kept; the key has the query in it, which visitors choose. */
const CACHE_ENTRIES = 500;
const MANIFEST_POLL_MS = 1000;
const MANIFEST_TIMEOUT_MS = 3000;
const MANIFEST_MAX_BYTES = 1024 * 1024;
/** `npm run serve` waits this long at most for the first worker to be warm, then serves anyway. */
const FIRST_WARM_MS = 15_000;
/** How many distinct config.json answers a new worker warms up with. */
const WARM_CONFIGS = 4;

export interface ServerRenderingOptions {
  rootDir: string;
  /** The answer /config.json gives this request (the default config follows its Host). */
  configFor: (req: IncomingMessage) => Promise<ConfigAnswer>;
  /** The page's security headers for this request and query. */
  pageHeaders: (req: IncomingMessage, search: string) => Promise<Record<string, string>>;
  /** The visitor-facing origin of the request. */
  originOf: (req: IncomingMessage) => string | undefined;
  budgetMs?: number;
  heapMb?: number;
  /** Off for each page rendered anew (measurements): the worker renders every request. */
  cache?: boolean;
  log: (line: string) => void;
}

export interface ServerRendering {
  /** Answers `/` and `/index.html` server-rendered, or calls `fallback` (the client-rendered index.html). */
  handle: (req: IncomingMessage, res: ServerResponse, fallback: () => Promise<void>) => Promise<void>;
  /** Watches the config a visitor to `hostHeader` gets and starts the first worker; resolves once it is warm (or after a bounded wait). */
  start: (hostHeaders: readonly string[]) => Promise<void>;
  /** The live worker and how many pages are cached, for measurements and tests. */
  worker: () => RenderWorkerState;
  close: () => Promise<void>;
}

export interface RenderWorkerState {
  generation: number | undefined;
  pid: number | undefined;
  cachedPages: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** What the page is sent in, best first: the client's q-values decide, then this order. */
const PAGE_ENCODINGS = ['br', 'gzip'] as const;
type PageEncoding = (typeof PAGE_ENCODINGS)[number] | 'identity';

/**
 * Brotli 5: about as small as gzip -9 in a fraction of the time, on a page
 * compressed once per cache entry but, with the cache off, once per request
 * (docs/decisions.md has the measurements).
 */
export const PAGE_BROTLI_QUALITY = 5;
const PAGE_GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** On the thread pool, not the event loop: other visitors are answered meanwhile. */
function compress(html: Buffer, encoding: PageEncoding): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(html, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    });
  }
  if (encoding === 'gzip') return gzipped(html, { level: PAGE_GZIP_LEVEL });
  return Promise.resolve(html);
}

/** A rendered page as cached: its bytes in each encoding a visitor asked for, each made once. */
interface CachedPage extends RenderedPage {
  /** The identity ETag; an encoding's is this with the encoding's name added (the bytes differ). */
  hash: string;
  bodies: Map<PageEncoding, Promise<Buffer>>;
}

function bodyOf(page: CachedPage, encoding: PageEncoding): Promise<Buffer> {
  let body = page.bodies.get(encoding);
  if (!body) {
    body = compress(Buffer.from(page.html), encoding);
    page.bodies.set(encoding, body);
    // A failed compression is tried again by the next visitor, not remembered.
    body.catch(() => page.bodies.delete(encoding));
  }
  return body;
}

const etagOf = (page: CachedPage, encoding: PageEncoding) => `"${page.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;

interface Template {
  text: string;
  stamp: string;
}

/**
 * The composed page rendered on the server. The front server (this) reads
 * config.json per request, as it serves it, takes the manifests the
 * background watcher last fetched, and asks the render worker for the page
 * within the budget; anything short of a page in time is answered with the
 * client-rendered index.html, so a visitor never waits longer than today.
 * Pages are cached on what they are made of.
 */
export function serverRendering(options: ServerRenderingOptions): ServerRendering | undefined {
  const workerFile = path.join(options.rootDir, RENDER_WORKER_PATH);
  if (!existsSync(workerFile)) {
    options.log(`no render worker at ${workerFile} (a host built before it?): pages are rendered in the browser`);
    return undefined;
  }
  const budgetMs = options.budgetMs ?? DEFAULT_SSR_BUDGET_MS;
  const templateFile = path.join(options.rootDir, 'host/dist/index.html');
  const cache = new PageCache<CachedPage>(CACHE_ENTRIES);
  const inFlight = new Map<string, Promise<CachedPage | undefined>>();
  /**
   * What a new worker renders to warm up: the latest pages asked for (or
   * primed) under each distinct config.json (the default one differs per
   * host name), each in every language.
   */
  const recent = new Map<string, PageRequest>();
  const remember = (request: PageRequest, configHash: string) => {
    recent.delete(configHash);
    recent.set(configHash, request);
    if (recent.size > WARM_CONFIGS) recent.delete(recent.keys().next().value!);
  };

  const workers = new RenderWorkers(
    { workerFile, heapMb: options.heapMb ?? DEFAULT_SSR_HEAP_MB, log: options.log, onLive: (generation) => cache.live(generation) },
    async () =>
      [...recent.values()].flatMap((page) =>
        LANGUAGES.map((language) => ({ ...page, language, pathname: '/', search: language === 'en' ? '' : '?type=2', budgetMs: 10_000 })),
      ),
  );
  const watcher = new ManifestWatcher({
    intervalMs: MANIFEST_POLL_MS,
    timeoutMs: MANIFEST_TIMEOUT_MS,
    maxBytes: MANIFEST_MAX_BYTES,
    // A redeployed (or newly configured) section: a fresh worker loads it, and no old code stays.
    onChange: () => void workers.renew(),
    log: options.log,
  });

  let template: Template | undefined;
  async function readTemplate(): Promise<Template | undefined> {
    try {
      const { mtimeMs, size } = await stat(templateFile);
      const stamp = `${mtimeMs}:${size}`;
      if (template?.stamp !== stamp) template = { text: await readFile(templateFile, 'utf8'), stamp };
      return template;
    } catch {
      return undefined;
    }
  }

  /** The page to ask for, and its cache key; undefined when this request is not one the server renders. */
  async function pageOf(req: IncomingMessage, pathname: string, search: string) {
    const answer = await options.configFor(req);
    const origin = options.originOf(req);
    const page = await readTemplate();
    if (answer.status !== 200 || origin === undefined || page === undefined) return undefined;
    const config: unknown = JSON.parse(answer.body);
    // config.json's remotes only, never the address's `?remote.<section>=`:
    // an override's manifest is neither watched nor sent to the worker (which
    // leaves that section to the browser, see renderComposedPage).
    const { remotes } = parseConfig(config).config;
    const manifests: Partial<Record<SectionId, string>> = {};
    const hashes: string[] = [];
    for (const id of SECTION_IDS) {
      const url = remotes[id];
      const watched = url === undefined ? undefined : watcher.current(url);
      if (watched?.text !== undefined) manifests[id] = watched.text;
      hashes.push(watched?.hash ?? '-');
    }
    const language = languageFromSearch(search);
    const request: PageRequest = { template: page.text, language, pathname, search, origin, config, manifests, budgetMs };
    const configHash = sha256(answer.body);
    const key = sha256(JSON.stringify([language, pathname, search, origin, configHash, hashes, page.stamp]));
    return { request, key, configHash };
  }

  async function rendered(request: PageRequest, key: string): Promise<CachedPage | undefined> {
    const generation = workers.liveGeneration;
    // Renders in flight for a generation being replaced are not shared with the next one.
    const fullKey = `${key}:${generation}`;
    const cached = options.cache === false ? undefined : cache.get(key, generation);
    if (cached) return cached;
    let rendering = inFlight.get(fullKey);
    if (!rendering) {
      // One entry for everyone waiting on this render, so they share its compressed bytes too.
      rendering = workers
        .render(request, budgetMs)
        .then((page) => page && { ...page, hash: sha256(page.html).slice(0, 27), bodies: new Map() })
        .finally(() => inFlight.delete(fullKey));
      inFlight.set(fullKey, rendering);
    }
    const entry = await rendering;
    if (!entry) return undefined;
    // A page the replaced generation finished after the switch is not kept (the cache knows which is live).
    if (options.cache !== false) cache.set(key, entry.generation, entry);
    return entry;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, fallback: () => Promise<void>): Promise<void> {
    const target = requestTarget(req.url);
    if (!target || (target.pathname !== '/' && target.pathname !== '/index.html')) return fallback();
    const asked = await pageOf(req, target.pathname, target.search);
    if (!asked) return fallback();
    remember(asked.request, asked.configHash);
    const page = await rendered(asked.request, asked.key);
    if (!page) return fallback();

    const headers = await options.pageHeaders(req, target.search);
    // The manifests are in the page: preloading them would fetch each twice.
    delete headers.Link;
    const encoding = chooseEncoding(req, PAGE_ENCODINGS) as PageEncoding;
    const etag = etagOf(page, encoding);
    const notModified = matchesEtag(req.headers['if-none-match'], etag);
    const body = notModified ? undefined : await bodyOf(page, encoding);
    clearFileHeaders(res);
    res.writeHead(notModified ? 304 : 200, {
      ...headers,
      Vary: [headers.Vary, 'Accept-Encoding'].filter(Boolean).join(', '),
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      ETag: etag,
      ...(encoding === 'identity' || notModified ? {} : { 'Content-Encoding': encoding }),
      ...(body === undefined ? {} : { 'Content-Length': String(body.length) }),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function start(hostHeaders: readonly string[]): Promise<void> {
    // Prime: the manifests a visitor by these host names gets, fetched once before the first worker warms with them.
    const primed = () =>
      Promise.all(
        hostHeaders.map(async (host) => {
          const request = { headers: { host }, url: '/', socket: {} } as unknown as IncomingMessage;
          const asked = await pageOf(request, '/', '').catch(() => undefined);
          if (asked) remember(asked.request, asked.configHash);
        }),
      );
    // Once to name the manifests to watch, once more with their texts.
    await primed();
    await watcher.poll();
    await primed();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, FIRST_WARM_MS).unref());
    await Promise.race([workers.renew(), timeout]);
  }

  return {
    handle,
    start,
    worker: () => ({ generation: workers.liveGeneration, pid: workers.pid, cachedPages: cache.size }),
    close: async () => {
      watcher.close();
      await workers.close();
    },
  };
}
