import type { IncomingMessage } from 'node:http';
import type { Logger } from '@portico/platform/logging';
import { LRUCache } from 'lru-cache';
import { ON_DEMAND_PATH, readScopedStylesheetAddress, type ScopedStylesheetRequest } from '@portico/contract/section-styles';
import { fetchVerified, scopeSectionStylesheet, SECTION_STYLESHEET_LIMITS } from '@portico/node-sections';
import { servedSections, type SiteConfig } from '@portico/shared-config/config';
import { plainAnswer } from '../plain-answer';
import { type Answer } from '@portico/platform/http';
import { chooseEncoding } from '../static-files';
import { compressPage, PAGE_ENCODINGS, stylesheetHeaders, type PageEncoding } from './page-answer';

/** The documented limits of the stylesheets scoped when a page asks (docs/server.md). */
const ON_DEMAND_STYLE_LIMITS: OnDemandStyleLimits = {
  /** One stylesheet, as for a server-rendered section's. */
  maxBytes: SECTION_STYLESHEET_LIMITS.maxBytes,
  /** Fetching one, from its first byte asked to its last. */
  timeoutMs: 5000,
  /** Fetched at once, for every page together. */
  fetchesAtOnce: 4,
  /** Asked for while those run; more are refused at once (503) rather than queued. */
  waiting: 64,
  /** How long one waits for its turn before it is refused. */
  waitMs: 5000,
  /** The scoped copies kept, with their compressed copies, least recently asked for dropped first. */
  keptBytes: 8 * 1024 * 1024,
  kept: 256,
  /** A stylesheet that could not be scoped is refused again without a fetch for this long. */
  refusedMs: 30_000,
};

export interface OnDemandStyleLimits {
  maxBytes: number;
  timeoutMs: number;
  fetchesAtOnce: number;
  waiting: number;
  waitMs: number;
  keptBytes: number;
  kept: number;
  refusedMs: number;
}

type Bodies = Record<PageEncoding, Buffer>;
type Refusal = { status: number; why: string };

/** The origins `section`'s stylesheets may come from for a page of `config`: its configured manifest's, and those any override may load from. */
function stylesheetOrigins(config: SiteConfig, section: string): string[] {
  if (!servedSections(config).some(({ id }) => id === section)) return [];
  const origins: string[] = [];
  for (const value of [config.remotes[section], ...config.allowedRemoteOrigins]) {
    try {
      if (value !== undefined) origins.push(new URL(value).origin);
    } catch {
      // A value config.json's reader already named; it allows nothing.
    }
  }
  return origins;
}

const keyOf = ({ section, href, integrity }: ScopedStylesheetRequest) => `${section} ${href} ${integrity}`;

/**
 * A section's stylesheet scoped to its slot when a page asks for it
 * (`scopedStylesheetAddress`): a section rendered in the browser (the
 * client-rendered page, a page past its budget, an override) and a
 * stylesheet the server could not fetch for a server-rendered page. The
 * page never links a section's stylesheet from the section's origin, so
 * this is the only way a section's CSS reaches the page.
 *
 * Only from an origin the page's config.json allows for that section, only
 * the bytes its manifest's hash names (fetchVerified: no redirect, size and
 * time bounded), scoped by the scoper the server-rendered page's copies
 * go through, a few fetches at once, one per stylesheet however many pages
 * ask; what cannot be scoped is refused (the section then has no
 * stylesheet, the rest of the page is as before) and refused again without
 * a fetch for a while. The scoped copies are kept, bounded in count and
 * bytes.
 */
export class OnDemandStyles {
  private readonly limits: OnDemandStyleLimits;
  private readonly kept: LRUCache<string, Bodies>;
  private readonly refused: LRUCache<string, Refusal>;
  private readonly scoping = new Map<string, Promise<Bodies | Refusal>>();
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly options: {
      log: Logger;
      /** A copy the server-rendered page's preparation already holds, if any. */
      prepared?: (request: ScopedStylesheetRequest) => Bodies | undefined;
    },
    limits: Partial<OnDemandStyleLimits> = {},
  ) {
    this.limits = { ...ON_DEMAND_STYLE_LIMITS, ...limits };
    this.kept = new LRUCache({
      max: this.limits.kept,
      maxSize: this.limits.keptBytes,
      sizeCalculation: (bodies) => Math.max(1, bodies.identity.length + bodies.br.length + bodies.gzip.length),
    });
    this.refused = new LRUCache({ max: 1024, ttl: this.limits.refusedMs });
  }

  /** Whether `pathname` is an address of these (`answer` refuses one it cannot read). */
  handles(pathname: string): boolean {
    return pathname.startsWith(ON_DEMAND_PATH);
  }

  /** Answers a page's request for a scoped stylesheet; `config`: the config.json that request is served, undefined when none is. */
  async answer(req: IncomingMessage, pathname: string, search: string, config: SiteConfig | undefined): Promise<Answer> {
    const request = readScopedStylesheetAddress(pathname, search);
    if (!request) return plainAnswer(404, 'Not found');
    if (!config || !stylesheetOrigins(config, request.section).includes(new URL(request.href).origin)) {
      return plainAnswer(404, `Not a stylesheet of the ${request.section} section's origins`);
    }
    const found = await this.scoped(request);
    if ('why' in found) return plainAnswer(found.status, found.why);
    const encoding = chooseEncoding(req, PAGE_ENCODINGS) as PageEncoding;
    // The address names the bytes (their hash) and the section; the scoper may be stricter in a later server.
    return { status: 200, headers: stylesheetHeaders(found, encoding, 'public, max-age=86400'), body: found[encoding] };
  }

  /** The scoped copy of `request`, or why there is none: kept, prepared, being made, or made now (one at a time per stylesheet). */
  async scoped(request: ScopedStylesheetRequest): Promise<Bodies | Refusal> {
    const key = keyOf(request);
    const found = this.kept.get(key) ?? this.options.prepared?.(request) ?? this.refused.get(key);
    if (found) return found;
    let made = this.scoping.get(key);
    if (!made) {
      made = this.inTurn(() => this.make(request)).finally(() => this.scoping.delete(key));
      this.scoping.set(key, made);
    }
    return made;
  }

  private async make(request: ScopedStylesheetRequest): Promise<Bodies | Refusal> {
    const { section, href, integrity } = request;
    const key = keyOf(request);
    let css: Buffer;
    try {
      css = await fetchVerified(href, integrity, { maxBytes: this.limits.maxBytes, timeoutMs: this.limits.timeoutMs });
    } catch (error) {
      const refusal = { status: 502, why: `The ${section} section's stylesheet could not be scoped: ${(error as Error).message}` };
      this.options.log.warn(`${refusal.why.slice(0, 400)}; the page shows the section without it`);
      this.refused.set(key, refusal);
      return refusal;
    }
    const scoped = scopeSectionStylesheet(css.toString('utf8'), { section, url: href, origin: new URL(href).origin });
    if (scoped.problems.length > 0)
      this.options.log.warn(
        `the ${section} section's stylesheet ${href}: ${scoped.problems.length} rules left out, which would reach outside its slot: ${scoped.problems[0]!.slice(0, 300)}`,
      );
    const identity = Buffer.from(scoped.css);
    const [br, gzip] = await Promise.all([compressPage(identity, 'br'), compressPage(identity, 'gzip')]);
    const bodies = { identity, br, gzip };
    this.kept.set(key, bodies);
    return bodies;
  }

  /** Runs `work` once fewer than `fetchesAtOnce` run; refused when too many wait, or one waited too long. */
  private async inTurn(work: () => Promise<Bodies | Refusal>): Promise<Bodies | Refusal> {
    const busy: Refusal = { status: 503, why: 'Too many stylesheets are being scoped; try again' };
    if (this.running >= this.limits.fetchesAtOnce) {
      if (this.queue.length >= this.limits.waiting) return busy;
      const turn = await new Promise<boolean>((resolve) => {
        const go = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.queue.splice(this.queue.indexOf(go), 1);
          resolve(false);
        }, this.limits.waitMs);
        this.queue.push(go);
      });
      if (!turn) return busy;
    } else this.running += 1;
    try {
      return await work();
    } finally {
      // The turn goes to the next waiting, if any: `running` counts it still.
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
