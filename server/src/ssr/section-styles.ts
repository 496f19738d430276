import type { IncomingMessage } from 'node:http';
import type { Logger } from '@portico/platform/logging';
import { EXPOSED_SECTION, type SectionId } from '@portico/contract/sections';
import type { Manifest } from '@portico/contract/manifest';
import { createHash } from 'node:crypto';
import { scopedStylesheetAddress, SECTION_STYLES_PATH, type ScopedStylesheetRequest } from '@portico/contract/section-styles';
import { fetchVerified, NodeSectionError, scopeSectionStylesheet, SECTION_STYLESHEET_LIMITS } from '@portico/node-sections';
import { plainAnswer } from '../plain-answer';
import { type Answer } from '@portico/platform/http';
import { CACHE_IMMUTABLE, chooseEncoding } from '../static-files';
import { compressPage, PAGE_ENCODINGS, stylesheetHeaders, type PageEncoding } from './page-answer';

/** Where the page's section stylesheets are answered, on the page's own origin. */
export { SECTION_STYLES_PATH };

/** The documented limits of the stylesheets the server answers for the sections (docs/server.md). */
const SECTION_STYLE_LIMITS: SectionStyleLimits = {
  ...SECTION_STYLESHEET_LIMITS,
  /** All the stylesheets kept, with their compressed copies: a manifest whose would not fit is rendered in the browser. */
  cacheBytes: 16 * 1024 * 1024,
  /** All of a manifest's stylesheets fetched, headers and bodies: the page asks for the rest scoped when it loads (scoped-on-demand.ts). */
  timeoutMs: 5000,
  /** How many of one manifest's stylesheets are fetched at once. */
  fetchesAtOnce: 4,
  /**
   * The stylesheets of a manifest no longer served are still answered this
   * long (a page sent a moment before links them), unless the room is
   * needed; then they go.
   */
  retiredMs: 60_000,
};

export interface SectionStyleLimits {
  perSection: number;
  maxBytes: number;
  sectionBytes: number;
  cacheBytes: number;
  timeoutMs: number;
  fetchesAtOnce: number;
  retiredMs: number;
}

/** A stylesheet as a manifest names it: its URL on the section's origin and its hash. */
interface SectionStylesheet {
  href: string;
  integrity?: string;
}

/** A stylesheet as the page links it: from the page's origin where it can, with the URL its section's code knows it by. */
export interface LinkedStylesheet extends SectionStylesheet {
  /** The manifest's URL of a copy the page's origin answers. */
  source?: string;
}

/** The stylesheets a manifest names for the section, each with the hash it gives. */
function stylesheetsOf(manifest: Manifest): SectionStylesheet[] {
  return (manifest.stylesheets[EXPOSED_SECTION] ?? []).map((href) => {
    const integrity = manifest.hashes.get(href);
    return integrity ? { href, integrity } : { href };
  });
}

/** `sha384-<base64>` as a path segment: the hash names the file, so the address is immutable. */
const fileNameOf = (integrity: string) => `${integrity.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.css`;

/** One stylesheet kept, with its compressed copies, and the manifests (style sets) that name it. */
interface KeptFile {
  bodies: Record<PageEncoding, Buffer>;
  bytes: number;
  sets: Set<string>;
}

/** A manifest's stylesheets on the page: linked (from here where they could be fetched), or why its section is left to the browser. */
type StyleSetResult = { links: LinkedStylesheet[] } | { refused: string };

interface StyleSet {
  /** The files it holds in `files`. */
  files: Set<string>;
  ready: Promise<StyleSetResult>;
  result?: StyleSetResult;
  /** When no plan named it any more. */
  retiredAt?: number;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * The sections' stylesheets, answered from the page's origin. A section's
 * CSS is render-blocking, and on its own origin it costs the visitor a new
 * connection (DNS, TCP, TLS) before the first paint. So the front server
 * fetches each stylesheet a server-rendered section's manifest names with a
 * hash, once per manifest (`prepare`, from the plan: never on a visitor's
 * request), only from the manifest's own origin, checked against its hash
 * (fetchVerified: no redirect, size and time bounded), keeps it with its
 * compressed copies, and answers it under a path made of the hash. A page
 * then only looks its links up (`links`).
 *
 * What a manifest may cost is bounded: SECTION_STYLESHEET_LIMITS per section
 * (how many, how large together) and `cacheBytes` for all; over either, the
 * section is rendered in the browser and the log says so once. A stylesheet
 * that cannot be fetched is linked at the address where the page asks for
 * it scoped when it loads (OnDemandStyles), and the log says so once for the
 * manifest; one with no hash or on another origin is not linked at all
 * (nothing could scope it). The page never links a section's own file.
 * The stylesheets of a manifest no plan names go (after `retiredMs`). An
 * address no kept manifest named is a 404, so this is no open proxy.
 */
export class SectionStyles {
  /** By manifest (its URL and the hash of its text). */
  private readonly sets = new Map<string, StyleSet>();
  /** By file name: what `answer` serves. */
  private readonly files = new Map<string, KeptFile>();
  private keptBytes = 0;
  /** By section, stylesheet URL and hash: its scoped copy's file and hash, so a stylesheet another manifest names again is not fetched again. */
  private readonly scopedOf = new Map<string, { file: string; integrity: string }>();
  /** The manifests prepared since the last `keepPrepared`. */
  private readonly prepared = new Set<string>();
  private readonly sweeper: NodeJS.Timeout;

  private readonly limits: SectionStyleLimits;

  /** `limits`: SECTION_STYLE_LIMITS, but for measurements and tests (a shorter `retiredMs`). */
  constructor(
    private readonly log: Logger,
    limits: Partial<SectionStyleLimits> = {},
  ) {
    this.limits = { ...SECTION_STYLE_LIMITS, ...limits };
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, this.limits.retiredMs / 6));
    this.sweeper.unref();
  }

  /** The bytes kept, compressed copies included. */
  get bytes(): number {
    return this.keptBytes;
  }

  /**
   * Fetches and checks the stylesheets `manifest` (text hashed `hash`) names
   * for `section`, once per manifest: resolves true once the page can link
   * them, false when the section is to be rendered in the browser.
   */
  async prepare(section: SectionId, manifest: Manifest, hash: string): Promise<boolean> {
    const key = `${manifest.url} ${hash}`;
    let set = this.sets.get(key);
    if (!set) {
      const created: StyleSet = { files: new Set(), ready: Promise.resolve({ refused: '' }) };
      created.ready = this.fill(key, created, section, manifest)
        .catch((error: unknown): StyleSetResult => {
          this.log.warn(`the ${section} section is rendered in the browser: its stylesheets could not be kept (${(error as Error).message})`);
          return { refused: 'not kept' };
        })
        .then((result) => (created.result = result));
      this.sets.set(key, (set = created));
    }
    set.retiredAt = undefined;
    this.prepared.add(key);
    return 'links' in (await set.ready);
  }

  /** The links of `manifest`'s stylesheets (text hashed `hash`) for a page; undefined unless `prepare` made them (its section is then rendered in the browser). */
  links(manifest: Manifest, hash: string): LinkedStylesheet[] | undefined {
    const result = this.sets.get(`${manifest.url} ${hash}`)?.result;
    return result && 'links' in result ? result.links : undefined;
  }

  /** At the end of a plan: the manifests it prepared are kept; the others are retired, and go after `retiredMs`. */
  keepPrepared(): void {
    const now = Date.now();
    for (const [key, set] of this.sets) if (!this.prepared.has(key)) set.retiredAt ??= now;
    this.prepared.clear();
    this.sweep();
  }

  /** The scoped copy of a stylesheet a prepared manifest names, with its compressed copies, if kept (for a page that asks for it by its address). */
  preparedCopy({ section, href, integrity }: ScopedStylesheetRequest): KeptFile['bodies'] | undefined {
    const scoped = this.scopedOf.get(`${section} ${href} ${integrity}`);
    return scoped && this.files.get(scoped.file)?.bodies;
  }

  /** Whether `pathname` is one of these; `answer` then answers it. */
  handles(pathname: string | undefined): boolean {
    return pathname?.startsWith(SECTION_STYLES_PATH) === true;
  }

  /** The answer to a page's request for one of these: the same headers object for every request of one copy. */
  answer(req: IncomingMessage, pathname: string): Answer {
    const kept = this.files.get(pathname.slice(SECTION_STYLES_PATH.length));
    if (!kept) return plainAnswer(404, 'Not found');
    const encoding = chooseEncoding(req, PAGE_ENCODINGS) as PageEncoding;
    const body = kept.bodies[encoding];
    return { status: 200, headers: stylesheetHeaders(kept.bodies, encoding, CACHE_IMMUTABLE), body };
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  /**
   * Fetches what `manifest` names into `set`: each stylesheet with a hash
   * on the manifest's own origin (the server fetches nothing elsewhere: a
   * manifest cannot make it reach another host on its network); the others
   * are left off the page.
   */
  private async fill(key: string, set: StyleSet, section: SectionId, manifest: Manifest): Promise<StyleSetResult> {
    const { perSection, sectionBytes, maxBytes, timeoutMs, fetchesAtOnce, cacheBytes } = this.limits;
    const named = stylesheetsOf(manifest);
    const leftToBrowser = (why: string): StyleSetResult => {
      this.log.warn(`the ${section} section is rendered in the browser: ${why} (${manifest.url})`);
      return { refused: why };
    };
    if (named.length > perSection)
      return leftToBrowser(`its manifest names ${named.length} stylesheets, over the ${perSection} a section rendered on the server may have`);

    const origin = new URL(manifest.url).origin;
    const local = named.filter(({ href, integrity }) => integrity !== undefined && new URL(href).origin === origin) as Required<SectionStylesheet>[];
    const fetched = new Map<string, Buffer>();
    const failures: string[] = [];
    // One deadline for the manifest's stylesheets together: the plan of every section waits for them.
    const deadline = performance.now() + timeoutMs;
    let total = 0;
    let overSize = false;
    const queue = [...new Map(local.map((sheet) => [`${sheet.href} ${sheet.integrity}`, sheet])).values()];
    // The page links each stylesheet as scoped to its section's slot, under the scoped copy's hash.
    const scopedFiles = new Map<string, { file: string; integrity: string }>();
    const ruleProblems: string[] = [];
    const keep = (href: string, css: Buffer) => {
      const scoped = scopeSectionStylesheet(css.toString('utf8'), { section, url: href, origin });
      ruleProblems.push(...scoped.problems);
      const bytes = Buffer.from(scoped.css);
      const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
      const file = fileNameOf(integrity);
      scopedFiles.set(href, { file, integrity });
      total += bytes.length;
      fetched.set(file, this.files.get(file)?.bodies.identity ?? bytes);
    };
    const next = async (): Promise<void> => {
      for (let sheet = queue.shift(); sheet !== undefined && !overSize; sheet = queue.shift()) {
        const { href, integrity } = sheet;
        const known = this.scopedOf.get(`${section} ${href} ${integrity}`);
        if (known && this.files.has(known.file)) {
          // Another manifest's already: fetched once, scoped once, kept once.
          scopedFiles.set(href, known);
          total += this.files.get(known.file)!.bodies.identity.length;
          fetched.set(known.file, this.files.get(known.file)!.bodies.identity);
        } else {
          const left = Math.floor(deadline - performance.now());
          if (left <= 0) {
            failures.push(`${href} was not fetched: its manifest's stylesheets take more than ${timeoutMs / 1000} s together`);
            continue;
          }
          try {
            keep(href, await fetchVerified(href, integrity, { maxBytes, timeoutMs: left }));
            this.scopedOf.set(`${section} ${href} ${integrity}`, scopedFiles.get(href)!);
          } catch (error) {
            if (error instanceof NodeSectionError && error.refusal === 'too-large') overSize = true;
            else failures.push((error as Error).message);
          }
        }
        if (total > sectionBytes) overSize = true;
      }
    };
    await Promise.all(Array.from({ length: fetchesAtOnce }, next));
    if (overSize)
      return leftToBrowser(
        `its stylesheets come to more than ${megabytes(sectionBytes)} (or one to more than ${maxBytes / 1024} KB), over what a section rendered on the server may have`,
      );

    const fresh = await Promise.all(
      [...fetched]
        .filter(([file]) => !this.files.has(file))
        .map(async ([file, css]) => {
          const [br, gzip] = await Promise.all([compressPage(css, 'br'), compressPage(css, 'gzip')]);
          return [file, { identity: css, br, gzip }] as const;
        }),
    );
    // Retired and dropped while it was fetched: nothing is kept for it.
    if (this.sets.get(key) !== set) return { refused: 'no longer served' };
    const needed = fresh.reduce((sum, [, bodies]) => sum + bodies.identity.length + bodies.br.length + bodies.gzip.length, 0);
    if (!this.makeRoom(needed))
      return leftToBrowser(
        `its stylesheets (${megabytes(needed)} with their compressed copies) do not fit in the ${megabytes(cacheBytes)} kept for every section's`,
      );
    for (const [file, bodies] of fresh) {
      if (this.files.has(file)) continue;
      const bytes = bodies.identity.length + bodies.br.length + bodies.gzip.length;
      this.files.set(file, { bodies, bytes, sets: new Set() });
      this.keptBytes += bytes;
    }
    for (const file of fetched.keys()) {
      this.files.get(file)?.sets.add(key);
      set.files.add(file);
    }
    if (failures.length > 0) {
      this.log.warn(
        `the ${section} section's stylesheets: ${failures.length} of ${local.length} could not be fetched for its page, which asks for them scoped when it loads (${manifest.url}): ${failures[0]!.slice(0, 300)}`,
      );
    }
    if (ruleProblems.length > 0)
      this.log.warn(
        `the ${section} section's stylesheets: ${ruleProblems.length} rules left out, which would reach outside its slot (${manifest.url}): ${ruleProblems[0]!.slice(0, 300)}`,
      );
    if (local.length < named.length)
      this.log.warn(
        `the ${section} section's stylesheets: ${named.length - local.length} of ${named.length} are left off the page, having no hash or another origin than its manifest's, so nothing could scope them (${manifest.url})`,
      );
    // Never the section's own file: a copy scoped here, else the address where the page asks for one scoped then.
    const links = local.map(({ href, integrity }): LinkedStylesheet => {
      const scoped = scopedFiles.get(href);
      return scoped && set.files.has(scoped.file)
        ? { href: `${SECTION_STYLES_PATH}${scoped.file}`, integrity: scoped.integrity, source: href }
        : { href: scopedStylesheetAddress({ section, href, integrity }), source: href };
    });
    return { links };
  }

  /** Whether `bytes` more fit, once retired manifests' stylesheets have gone, oldest first, as far as needed. */
  private makeRoom(bytes: number): boolean {
    const limit = this.limits.cacheBytes;
    if (this.keptBytes + bytes <= limit) return true;
    const retired = [...this.sets].filter(([, set]) => set.retiredAt !== undefined).sort(([, a], [, b]) => a.retiredAt! - b.retiredAt!);
    for (const [key, set] of retired) {
      this.drop(key, set);
      if (this.keptBytes + bytes <= limit) return true;
    }
    return false;
  }

  /** Drops the manifests retired for longer than `retiredMs`. */
  private sweep(): void {
    const before = Date.now() - this.limits.retiredMs;
    for (const [key, set] of this.sets) if (set.retiredAt !== undefined && set.retiredAt <= before) this.drop(key, set);
  }

  /** Forgets a manifest's stylesheets; a file goes once no kept manifest names it. */
  private drop(key: string, set: StyleSet): void {
    if (this.sets.get(key) === set) this.sets.delete(key);
    for (const file of set.files) {
      const kept = this.files.get(file);
      if (!kept) continue;
      kept.sets.delete(key);
      if (kept.sets.size > 0) continue;
      this.files.delete(file);
      this.keptBytes -= kept.bytes;
      for (const [source, scoped] of this.scopedOf) if (scoped.file === file) this.scopedOf.delete(source);
    }
    set.files.clear();
  }
}
