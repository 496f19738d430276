import type { FastifyRequest } from 'fastify';
import type { ContactFormTexts } from '@portico/contract/contact-form';
import type { BuiltInSectionId, SectionId } from '@portico/contract/sections';
import type { Logger } from '@portico/platform/logging';
import type { NodeBuild } from '@portico/node-sections/protocol';
import { type Answer } from '@portico/platform/http';
import type { SiteContext } from '../site-context';
import type { ChurnBound } from './manifest-churn';
import type { HeldManifest } from './manifest-watcher';
import type { Sandbox, SandboxOptions } from './sandbox';
import type { SectionSignal, SectionWorkerState } from './section-stage';
import type { SectionStyleLimits, SectionStyles } from './section-styles';
import type { CpuBudget } from './worker-process';

// What the server rendering takes from the server that embeds it, and what
// it answers (server-rendering.ts makes one).

export interface ServerRenderingOptions {
  rootDir: string;
  /**
   * Each config.json a visitor to this host may get now: one, or one per
   * cohort's releases while a canary runs. For the background work: every
   * one of them is warmed and rendered.
   */
  siteForHost: (host: string | undefined) => Promise<SiteContext[]>;
  /** The same for one request, once per request: the page, its headers and /config.json share it. */
  siteOf: (request: FastifyRequest) => Promise<SiteContext>;
  /** The page's security headers for this request and query. */
  pageHeaders: (request: FastifyRequest, search: string) => Promise<Record<string, string>>;
  budgetMs?: number;
  heapMb?: number;
  /** Off for each page rendered anew (measurements): the workers render every request. */
  cache?: boolean;
  /** PORTICO_SSR_SANDBOX and the workers' user; for tests, where bubblewrap and unshare are and whether the server is root. */
  sandbox?: Omit<SandboxOptions, 'workerFile'>;
  /** The sections' stylesheets' limits (SECTION_STYLE_LIMITS), for measurements and tests: a shorter time a retired manifest's are kept. */
  styleLimits?: Partial<SectionStyleLimits>;
  /** How fast a section's manifest may change before it is held (MANIFEST_CHURN), for tests: a smaller bound, a shorter calm. */
  manifestChurn?: Partial<ChurnBound>;
  /** Each section worker's CPU budget (SECTION_CPU_BUDGET), for tests: a smaller one, spent sooner on a busy machine. */
  cpuBudget?: CpuBudget;
  /**
   * What this server sees of a section's build itself (SectionStageOptions.onSignal):
   * for the release store (the canary judge, `status`) beyond the log.
   */
  onSignal?: (signal: SectionSignal) => void;
  log: Logger;
}

export interface ServerRendering {
  /** Answers `/` and `/index.html` server-rendered, or calls `fallback` (the client-rendered index.html). */
  handle: (request: FastifyRequest, fallback: () => Promise<Answer>) => Promise<Answer>;
  /** Chooses the sandbox, starts the workers for the config a visitor to `hostHeaders` gets; resolves once they are warm (or after a bounded wait). */
  start: (hostHeaders: readonly string[]) => Promise<void>;
  /**
   * Warms the workers for the config the known hosts will get next (an
   * activation or a rollback about to be served): resolves once each section's
   * worker runs those builds, or after `withinMs`, whichever is first.
   */
  warm: (next: (host: string | undefined) => Promise<SiteContext[]>, withinMs: number) => Promise<void>;
  /**
   * A publish's render check: the build evaluated in a worker of its own, in
   * the same sandbox as every section's, and the section rendered in each
   * language with the current config, each within the render deadline.
   * Each problem in words; none means it renders.
   */
  checkRender: (section: SectionId, build: NodeBuild) => Promise<string[]>;
  /**
   * The page at `/` with `search` as text, with its headers, for an answer
   * made from it (the contact form's without script, which fills in what
   * was typed and is never kept); undefined when it cannot be rendered here.
   */
  pageHtml: (request: FastifyRequest, search: string) => Promise<PageHtml | undefined>;
  /** The sections' stylesheets the page links from its own origin (`/section-styles/…`). */
  sectionStyles: Pick<SectionStyles, 'handles' | 'answer' | 'preparedCopy'>;
  /** The workers and the caches, for measurements and tests. */
  worker: () => RenderWorkerState;
  close: () => Promise<void>;
}

/** A rendered page as text and the headers it is sent with (its CSP allows its inline script). */
export interface PageHtml {
  html: string;
  headers: Record<string, string>;
  /**
   * The words each section's form in the page carries for the answer to it
   * (contract/src/contact-form.ts), taken out of the section's HTML when the
   * server checked it: the page itself does not hold them.
   */
  formTexts: ReadonlyMap<SectionId, ContactFormTexts>;
}

/** What the pipeline counts as it happens, since the start: read by the metrics at each scrape. */
export interface RenderCounts {
  /** Pages answered from the page cache (made for an earlier visitor). */
  cacheHits: number;
  /** Pages composed for this request (the cache's misses). */
  cacheMisses: number;
  /** Sections left to the browser on a page because, with them, it would pass its budget. */
  sectionsPastBudget: number;
  /** Pages sent client-rendered because their compression was not done within the budget. */
  pagesPastBudget: number;
  /** Worker deaths (or failed starts), each followed by a restart or by its plan set aside. */
  workerDeaths: { shell: number; section: number };
}

export interface RenderWorkerState {
  /** Counted since the start (RenderCounts). */
  counts: RenderCounts;
  /** The shell worker's. */
  pid: number | undefined;
  generation: number | undefined;
  /** Per section: its live worker, whether its plan is set aside, and the builds the live worker runs and the plan wants. */
  sections: Record<BuiltInSectionId, SectionWorkerState> & Partial<Record<SectionId, SectionWorkerState>>;
  /** How section code is contained here, or undefined when it does not run on this server. */
  sandbox: Sandbox['mode'] | undefined;
  cachedPages: number;
  cacheBytes: number;
  /** The sections' stylesheets kept, with their compressed copies. */
  styleBytes: number;
  /** Pages composed since the start (the cache's misses). */
  composedPages: number;
  /** The manifests held at their last version because they change too fast (manifest-churn.ts). */
  heldManifests: HeldManifest[];
}
