import type { IncomingMessage, ServerResponse } from 'node:http';
import { fetchVerified } from '@portico/node-sections';
import { answerPlain, clearFileHeaders } from '../plain-answer';
import { dataHeaders } from '../security-headers';
import { CACHE_IMMUTABLE, chooseEncoding } from '../static-files';
import { ByteCache } from './byte-cache';
import { compressPage, PAGE_ENCODINGS, type PageEncoding } from './page-answer';

/** Where the server-rendered page's section stylesheets are answered, on the page's own origin. */
export const SECTION_STYLES_PATH = '/section-styles/';

/** The documented limits of the stylesheets the server answers for the sections (docs/server.md). */
export const SECTION_STYLE_LIMITS = {
  /** One section stylesheet; larger is refused (the page links the section's own URL instead). */
  maxBytes: 512 * 1024,
  /** All the stylesheets kept, with their compressed copies. */
  cacheBytes: 8 * 1024 * 1024,
  /** A fetch from the section's origin, headers and body. */
  timeoutMs: 5000,
};

/** A stylesheet as a manifest names it: its URL on the section's origin and its hash. */
export interface SectionStylesheet {
  href: string;
  integrity?: string;
}

/** A stylesheet as the page links it: from the page's origin where it can, with the URL its section's code knows it by. */
export interface LinkedStylesheet extends SectionStylesheet {
  /** The manifest's URL of a copy the page's origin answers. */
  source?: string;
}

/** `sha384-<base64>` as a path segment: the hash names the file, so the address is immutable. */
const fileNameOf = (integrity: string) => `${integrity.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.css`;

interface Kept {
  css: Buffer;
  bodies: Map<PageEncoding, Promise<Buffer>>;
}

/**
 * The sections' stylesheets, answered from the page's origin. A section's
 * CSS is render-blocking, and on its own origin it costs the visitor a new
 * connection (DNS, TCP, TLS) before the first paint: on a phone on a slow
 * network, hundreds of milliseconds per section. The front server already
 * trusts a section's manifest for its node build; it fetches each
 * stylesheet the manifest names with a hash, only from that URL, checks the
 * hash (fetchVerified: no redirect, size and time bounded), and answers it
 * under a path made of the hash. Nothing else is answered here: an address
 * no manifest named is a 404, so this is no open proxy. The browser checks
 * the same hash again (the link keeps its `integrity`).
 */
export class SectionStyles {
  /** File name → the manifest's URL and hash, for every stylesheet a watched manifest named. */
  private readonly named = new Map<string, Required<SectionStylesheet>>();
  private readonly fetching = new Map<string, Promise<Kept | undefined>>();
  private readonly kept = new ByteCache<Kept>(SECTION_STYLE_LIMITS.cacheBytes);

  constructor(private readonly log: (line: string) => void) {}

  /**
   * The links for `stylesheets`, named by the manifest at `manifestUrl`, on
   * the page: each with a hash on the manifest's own origin comes from this
   * origin (fetched now, in the background, for the first visitor); the
   * others are linked as the manifest names them, for the browser and its
   * CSP to judge. The server fetches nothing from another origin than the
   * manifest's, as for node builds: a manifest cannot make it reach
   * elsewhere (another host on its network, say).
   */
  local(manifestUrl: string, stylesheets: readonly SectionStylesheet[]): LinkedStylesheet[] {
    const origin = new URL(manifestUrl).origin;
    return stylesheets.map(({ href, integrity }) => {
      if (!integrity || new URL(href).origin !== origin) return integrity ? { href, integrity } : { href };
      const file = fileNameOf(integrity);
      if (!this.named.has(file)) this.named.set(file, { href, integrity });
      void this.load(file);
      return { href: `${SECTION_STYLES_PATH}${file}`, integrity, source: href };
    });
  }

  private load(file: string): Promise<Kept | undefined> {
    const kept = this.kept.get(file);
    if (kept) return Promise.resolve(kept);
    const source = this.named.get(file);
    if (!source) return Promise.resolve(undefined);
    let pending = this.fetching.get(file);
    if (!pending) {
      pending = fetchVerified(source.href, source.integrity, { maxBytes: SECTION_STYLE_LIMITS.maxBytes, timeoutMs: SECTION_STYLE_LIMITS.timeoutMs }).then(
        (css) => {
          const entry: Kept = { css, bodies: new Map() };
          this.kept.set(file, entry, css.length);
          return entry;
        },
        (error: unknown) => {
          this.log(`a section stylesheet could not be answered from the page's origin: ${(error as Error).message}`);
          return undefined;
        },
      );
      this.fetching.set(file, pending);
      void pending.finally(() => this.fetching.delete(file));
    }
    return pending;
  }

  /** Whether `pathname` is one of these; `answer` then answers it. */
  handles(pathname: string | undefined): boolean {
    return pathname?.startsWith(SECTION_STYLES_PATH) === true;
  }

  async answer(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const file = pathname.slice(SECTION_STYLES_PATH.length);
    const kept = this.named.has(file) ? await this.load(file) : undefined;
    if (!kept) return answerPlain(req, res, this.named.has(file) ? 502 : 404, this.named.has(file) ? 'The section stylesheet cannot be fetched now' : 'Not found');
    const encoding = chooseEncoding(req, PAGE_ENCODINGS) as PageEncoding;
    let body = kept.bodies.get(encoding);
    if (!body) {
      body = compressPage(kept.css, encoding);
      kept.bodies.set(encoding, body);
    }
    const bytes = await body;
    clearFileHeaders(res);
    res.writeHead(200, {
      ...dataHeaders(),
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': CACHE_IMMUTABLE,
      Vary: 'Accept-Encoding',
      ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
      'Content-Length': String(bytes.length),
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  }
}
