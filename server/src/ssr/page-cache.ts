import { createHash } from 'node:crypto';
import type { ContactFormTexts } from '@portico/contract/contact-form';
import type { SectionId } from '@portico/contract/sections';
import { ByteCache } from './byte-cache';
import type { PageScriptCode } from './inline-page-script';
import { compressKeptPage, compressPage, type EncodedPage, type PageEncoding } from './page-answer';
import { CompressionLanes, type PageCosts } from './page-budget';
import { SSR_LIMITS } from './render-limits';

/** Pages compressed at once: half the thread pool (libuv's four threads), the other half for files. */
export const COMPRESSION_LANES = 2;

/** A manifest as a page made from it knows it: its URL and the version served (none: ''). */
export const manifestTag = (url: string, hash: string | undefined) => `${hash ?? ''} ${url}`;

/** What a page was made from that may change under it: a new version of one, and only the pages made from it go. */
export interface PageSources {
  /** The manifests its config names, each as `manifestTag` spells it (the URL and the version served). */
  manifests: readonly string[];
  /** The sections whose HTML it holds. */
  rendered: readonly SectionId[];
}

/** A composed page as kept: its bytes in each encoding a visitor asked for, each made once. */
export interface CachedPage {
  key: string;
  sources: PageSources;
  html: Buffer;
  /** The identity ETag; an encoding's is this with the encoding's name added (the bytes differ). */
  hash: string;
  bodies: Map<PageEncoding, Promise<Buffer>>;
  /** What it holds, for the cache's byte budget. */
  bytes: number;
  /** The page script inlined in it, whose hash the page's CSP allows. */
  script?: PageScriptCode;
  /** The words each section's form in it carries for the server's answer to that form: kept with the page, never sent in it. */
  formTexts: ReadonlyMap<SectionId, ContactFormTexts>;
  /** Each encoding's bytes once made. */
  made?: Map<PageEncoding, Buffer>;
  /** Its brotli was made smallest (compressKeptPage), or is being. */
  smallest?: boolean;
}

/**
 * The last stage: composed pages kept by a key of everything they were made
 * from, each compressed once per encoding a visitor asks for (on the
 * thread pool, a few at a time, each measured for the page budget) and its
 * brotli once more at the smallest for the visitors after (`shrink`), within
 * a byte budget that counts the compressed copies.
 */
export class PageCache {
  private readonly pages = new ByteCache<CachedPage>(SSR_LIMITS.pageCacheBytes);
  private readonly lanes = new CompressionLanes(COMPRESSION_LANES);
  /**
   * The one kept page whose brotli is being made smallest: one at a time, never queued, so a flood of new pages costs
   * none of it. It takes one thread of the pool's file half, outside the lanes, so it never delays a page's own compression.
   */
  private shrinking = false;
  /** Pages composed since the start, kept or not: what a test or a measurement sees of the cache's misses. */
  private composed = 0;

  /** `keep` off: every page is composed and compressed afresh (PORTICO_SSR_CACHE=0). */
  constructor(
    private readonly keep: boolean,
    private readonly costs: PageCosts,
  ) {}

  /** The bytes being compressed or waiting to be, which a new page's compression waits behind. */
  get compressing(): number {
    return this.lanes.queuedBytes;
  }

  get size(): number {
    return this.pages.size;
  }

  get bytes(): number {
    return this.pages.bytes;
  }

  get composedPages(): number {
    return this.composed;
  }

  get(key: string): CachedPage | undefined {
    return this.keep ? this.pages.get(key) : undefined;
  }

  /** Keeps the page composed for `key` from `sources`. */
  add(
    key: string,
    html: string,
    script: PageScriptCode | undefined,
    sources: PageSources = { manifests: [], rendered: [] },
    formTexts: ReadonlyMap<SectionId, ContactFormTexts> = new Map(),
  ): CachedPage {
    this.composed += 1;
    const bytes = Buffer.from(html);
    const page: CachedPage = {
      key,
      sources,
      html: bytes,
      hash: createHash('sha256').update(html).digest('base64').slice(0, 27),
      bodies: new Map(),
      bytes: bytes.length,
      script,
      formTexts,
    };
    if (this.keep) this.pages.set(key, page, page.bytes);
    return page;
  }

  /** The page as answerPage sends it: its ETag's hash and its bytes in an encoding, made once. */
  encoded(page: CachedPage): EncodedPage {
    return { hash: page.hash, bodyOf: (encoding) => this.bodyOf(page, encoding) };
  }

  /** The page's bytes in `encoding` if they are made already (nothing to wait for). */
  made(page: CachedPage, encoding: PageEncoding): Buffer | undefined {
    if (encoding === 'identity') return page.html;
    const bytes = page.made?.get(encoding);
    if (bytes && encoding === 'br') this.shrink(page, bytes);
    return bytes;
  }

  /**
   * Once a kept page was sent in brotli, its brotli is made again at the
   * smallest (compressKeptPage) when no other page's is, for the visitors
   * after. The same page decoded, so the same ETag: a visitor holding the
   * first bytes revalidates them as before.
   */
  private shrink(page: CachedPage, first: Buffer): void {
    if (!this.keep || page.smallest || this.shrinking) return;
    page.smallest = true;
    this.shrinking = true;
    compressKeptPage(page.html)
      .then(
        (smaller) => {
          if (smaller.length >= first.length) return;
          page.made!.set('br', smaller);
          page.bodies.set('br', Promise.resolve(smaller));
          page.bytes += smaller.length - first.length;
          this.pages.resize(page.key, page.bytes);
        },
        () => undefined,
      )
      .finally(() => (this.shrinking = false));
  }

  /** Pages made with another generation of the shell's worker are not served again. */
  clear(): void {
    this.pages.clear();
  }

  /** The manifest at `url` is no longer served at version `before`: the pages made from that version go, every other page stays. */
  forgetVersion(url: string, before: string | undefined): void {
    const made = manifestTag(url, before);
    this.pages.deleteWhere((_key, page) => page.sources.manifests.includes(made));
  }

  /** Another worker answers for `section`: the pages holding its HTML go, the others stay. */
  forgetSection(section: SectionId): void {
    this.pages.deleteWhere((_key, page) => page.sources.rendered.includes(section));
  }

  private bodyOf(page: CachedPage, encoding: PageEncoding): Promise<Buffer> {
    let body = page.bodies.get(encoding);
    if (!body) {
      body =
        encoding === 'identity'
          ? Promise.resolve(page.html)
          : this.lanes.run(page.html.length, async () => {
              const started = performance.now();
              const bytes = await compressPage(page.html, encoding);
              this.costs.note(encoding, page.html.length, performance.now() - started);
              return bytes;
            });
      page.bodies.set(encoding, body);
      // A failed compression is tried again by the next visitor, not remembered.
      body.then(
        (bytes) => {
          (page.made ??= new Map()).set(encoding, bytes);
          page.bytes += bytes.length;
          if (this.keep) this.pages.resize(page.key, page.bytes);
          if (encoding === 'br') this.shrink(page, bytes);
        },
        () => page.bodies.delete(encoding),
      );
    }
    return body;
  }
}
