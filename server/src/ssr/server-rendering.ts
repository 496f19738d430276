// The server-rendered page as a pipeline. Each stage is a module of this
// folder with one job; a page goes through them in this order:
//
//   1. served-sites.ts      which config.json files are served: the hosts visitors
//                           came by, the previews they opened, an activation about
//                           to be served
//   2. section-sources.ts   the manifests those name (polled in the background,
//                           held to their pins) and the node builds they name
//                           (fetched here, checked against their hashes)
//   3. worker-plans.ts      which builds each section's worker runs; a worker of
//                           its own per previewed build
//   4. shell-stage.ts       the shell (head, nav, notices, footer) from the shell worker
//   5. section-stage.ts     each section's HTML from its sandboxed worker, checked
//                           (section-html.ts)
//   6. page-composition.ts  which parts go in (ids), and the page from its parts:
//                           pure functions
//   7. page-cache.ts        the pages kept, each compressed once per encoding;
//                           page-answer.ts sends them (ETag, 304)
//
// The worker pools share worker-pool.ts (one set of worker options, one reading
// of an answer), single-flight.ts (the cache and the renders under way) and
// supervisor.ts. This module wires the stages together and holds the one path
// a page request takes (`pageFor`).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileStamp } from '@portico/config-server/file-stamp';
import type { FastifyRequest } from 'fastify';
import path from 'node:path';
import { languageFromSearch } from '@portico/contract/languages';
import { resolveRemotes } from '@portico/contract/override';
import { pageQuery } from '@portico/contract/page-query';
import { previewTokenIn } from '@portico/contract/preview';
import type { SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import type { SiteConfig } from '@portico/shared-config/config';
import { onceEach } from '../first-sight';
import { type Answer } from '@portico/platform/http';
import type { SiteContext } from '../site-context';
import { chooseEncoding, requestTarget } from '../static-files';
import { PageScriptHeaders, pageScriptIn, pageScriptReader, type PageScriptCode } from './inline-page-script';
import { KnownPages } from './known-pages';
import { answerPage, PAGE_ENCODINGS, type PageEncoding } from './page-answer';
import { byDeadline, PageCosts, PastBudget } from './page-budget';
import { COMPRESSION_LANES, PageCache, type CachedPage } from './page-cache';
import { PageComposer } from './page-composer';
import { candidates, pageKey, placeParts } from './page-composition';
import { SECTION_WORKER_PATH, SHELL_WORKER_PATH, SSR_LIMITS } from './render-limits';
import { chooseSandbox, type Sandbox } from './sandbox';
import { ServedSites } from './served-sites';
import type { ManifestChange } from './manifest-watcher';
import { SectionSources } from './section-sources';
import { SectionStage } from './section-stage';
import type { SectionStyles } from './section-styles';
import { ShellStage, shellRequest } from './shell-stage';
import { WorkerPlanner } from './worker-plans';
import type { PageHtml, RenderCounts, RenderWorkerState, ServerRendering, ServerRenderingOptions } from './rendering-contract';

export type { SectionSignal } from './section-stage';
export type { RenderWorkerState, ServerRendering, ServerRenderingOptions } from './rendering-contract';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** About the page around the sections (the shell, the page data, the page script): the parts are waited for until this much could still be made in time. */
const PAGE_FRAME_BYTES = 64 * 1024;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/** Lines the log says once each: a failing section would say the same at every page. */
const LINES_KEPT = 200;

/**
 * The composed page rendered on the server from parts (docs/decisions.md,
 * "Section code on the server"): the shell by the shell worker, with a slot
 * per section; each section by a worker of its own that runs that team's
 * node build inside an OS sandbox; the front server (this) puts each
 * section's checked HTML into its slot, the section's stylesheets into the
 * head and the hydration data at the end. Anything short of a part in time
 * leaves that part to the browser (the whole page, for the shell); a visitor
 * never waits longer than the budget. Undefined when the host was built
 * without its workers.
 */
export function serverRendering(options: ServerRenderingOptions): ServerRendering | undefined {
  const shellFile = path.join(options.rootDir, SHELL_WORKER_PATH);
  const sectionFile = path.join(options.rootDir, SECTION_WORKER_PATH);
  if (!existsSync(shellFile) || !existsSync(sectionFile)) {
    options.log.warn(`no server workers in ${path.dirname(shellFile)} (a host built before them?): pages are rendered in the browser`);
    return undefined;
  }
  const pipeline = new RenderingPipeline(options, shellFile, sectionFile);
  return {
    handle: (request, fallback) => pipeline.handle(request, fallback),
    start: (hostHeaders) => pipeline.start(hostHeaders),
    warm: (next, withinMs) => pipeline.warm(next, withinMs),
    checkRender: (section, build) => pipeline.checkRender(section, build),
    pageHtml: (req, search) => pipeline.pageHtml(req, search),
    sectionStyles: pipeline.sectionStyles,
    worker: () => pipeline.state(),
    close: () => pipeline.close(),
  };
}

/** The stages, wired together; `pageFor` is the path every page request takes. */
class RenderingPipeline {
  readonly sectionStyles: SectionStyles;
  private readonly budgetMs: number;
  private readonly readPageScript: (file: string) => Promise<PageScriptCode | undefined>;
  private readonly report: (line: string) => void;
  private readonly pages: PageCache;
  /** What composing and compressing a page costs here now, measured on the pages made. */
  private readonly costs = new PageCosts(COMPRESSION_LANES);
  private readonly composer: PageComposer;
  private readonly sites: ServedSites;
  private readonly sources: SectionSources;
  private readonly shell: ShellStage;
  private readonly sections: SectionStage;
  private readonly planner: WorkerPlanner;
  private sandbox: Sandbox | undefined;
  private closed = false;
  private readonly templateFile: string;
  private readonly known: KnownPages;
  private readonly pageHeaders = new PageScriptHeaders();
  /** Plain numbers where things happen; the metrics read them at a scrape, so a page costs an addition. */
  private readonly counts: RenderCounts = { cacheHits: 0, cacheMisses: 0, sectionsPastBudget: 0, pagesPastBudget: 0, workerDeaths: { shell: 0, section: 0 } };

  constructor(
    private readonly options: ServerRenderingOptions,
    shellFile: string,
    private readonly sectionFile: string,
  ) {
    const { log } = options;
    const heapMb = options.heapMb ?? SSR_LIMITS.heapMb;
    const caching = options.cache !== false;
    const templateFile = path.join(options.rootDir, 'host/dist/index.html');
    this.templateFile = templateFile;
    this.known = new KnownPages(templateFile);
    this.budgetMs = options.budgetMs ?? SSR_LIMITS.budgetMs;
    this.readPageScript = pageScriptReader(path.dirname(templateFile));
    // Said as warnings: each is a part the page goes without (rendered in the browser, left out).
    this.report = onceEach((line) => log.warn(line), LINES_KEPT);
    this.pages = new PageCache(caching, this.costs);
    this.composer = new PageComposer(this.pages, this.costs, this.budgetMs, this.report, (sections) => (this.counts.sectionsPastBudget += sections));
    const replan = () => void this.planner.replan();
    const clearPages = () => this.pages.clear();
    // Only the pages that hold a section's HTML from the worker replaced go; the other sections' pages stay.
    const forgetSection = (section: SectionId) => this.pages.forgetSection(section);
    const current = () => this.sites.current();
    this.sites = new ServedSites(options.siteForHost, replan);
    // A manifest's new version makes new pages (they inline it and render its build): only the pages made from the one before go,
    // never another section's or another config's. The shells stay: their key is the stylesheets they link, not the manifests.
    const forgetPages = ({ url, before }: ManifestChange) => this.pages.forgetVersion(url, before);
    this.sources = new SectionSources({
      onChange: replan,
      onManifestChange: forgetPages,
      log,
      report: this.report,
      styleLimits: options.styleLimits,
      churn: options.manifestChurn,
    });
    this.sectionStyles = this.sources.styles;
    this.shell = new ShellStage({
      workerFile: shellFile,
      templateFile,
      heapMb,
      caching,
      sites: current,
      onSwitch: clearPages,
      onWorkerDeath: () => (this.counts.workerDeaths.shell += 1),
      log,
    });
    this.sections = new SectionStage({
      heapMb,
      caching,
      budgetMs: this.budgetMs,
      sites: current,
      cpuBudget: options.cpuBudget,
      onSwitch: forgetSection,
      onSignal: options.onSignal,
      onWorkerDeath: () => (this.counts.workerDeaths.section += 1),
      log,
      report: this.report,
    });
    this.planner = new WorkerPlanner({
      sites: this.sites,
      sources: this.sources,
      sections: this.sections,
      watch: (config) => this.watch(config),
      active: () => this.sandbox !== undefined && !this.closed,
    });
  }

  async handle(request: FastifyRequest, fallback: () => Promise<Answer>): Promise<Answer> {
    // The budget runs from here to the answer's last byte made: the parts, the composition, the compression.
    const deadline = performance.now() + this.budgetMs;
    const target = requestTarget(request.raw.url);
    if (!target || (target.pathname !== '/' && target.pathname !== '/index.html')) return fallback();
    const encoding = chooseEncoding(request.raw, PAGE_ENCODINGS) as PageEncoding;
    const known = await this.knownPage(request, target.pathname, target.search);
    if (known) this.counts.cacheHits += 1;
    const page = known ?? (await this.pageFor(request, target.pathname, target.search, encoding, deadline));
    if (!page) return fallback();

    const headers = this.pageHeaders.of(await this.options.pageHeaders(request, target.search), page.script);
    const { hash, bodyOf } = this.pages.encoded(page);
    try {
      // A compression still under way at the deadline goes on for the next visitor; this one gets the client-rendered page.
      const byBudget = (chosen: PageEncoding) => {
        const made = this.pages.made(page, chosen);
        return made ? Promise.resolve(made) : byDeadline(bodyOf(chosen), deadline);
      };
      return await answerPage(request.raw, { hash, bodyOf: byBudget }, headers);
    } catch (error) {
      if (!(error instanceof PastBudget)) throw error;
      this.counts.pagesPastBudget += 1;
      return fallback();
    }
  }

  async pageHtml(request: FastifyRequest, search: string): Promise<PageHtml | undefined> {
    const deadline = performance.now() + this.budgetMs;
    const page = (await this.knownPage(request, '/', search)) ?? (await this.pageFor(request, '/', search, 'identity', deadline));
    if (!page) return undefined;
    return {
      html: page.html.toString('utf8'),
      headers: this.pageHeaders.of(await this.options.pageHeaders(request, search), page.script),
      formTexts: page.formTexts,
    };
  }

  async start(hostHeaders: readonly string[]): Promise<void> {
    const { log } = this.options;
    for (const host of hostHeaders) this.sites.noteHost(host);
    const choice = await chooseSandbox({ ...this.options.sandbox, workerFile: this.sectionFile });
    if (this.closed) {
      // Stopped while the sandbox was probed: its staged folder goes now.
      choice.sandbox?.close();
      return;
    }
    if (choice.sandbox) {
      this.sandbox = choice.sandbox;
      this.sections.useSandbox(choice.sandbox);
      log.info(`section code runs on the server in ${choice.sandbox.description}`);
      if (choice.warning) log.warn(`warning: ${choice.warning}`);
    } else {
      log.warn(`sections are rendered in the browser only: ${choice.problem}`);
    }
    await this.shell.start();
    await this.planner.readConfigs();
    // The shell (the host's own code) may hold the port up to firstWarmMs; the
    // sections (their manifests, node builds, stylesheets and first workers:
    // what a section's team or CDN controls) no longer than sectionStartHoldMs.
    const holdMs = SSR_LIMITS.sectionStartHoldMs;
    const sectionsStarted = (async () => {
      const started = performance.now();
      await this.sources.poll();
      await this.planner.replan();
      await this.sections.whenStarted(holdMs - (performance.now() - started));
    })();
    // Past the bound nobody awaits it; before it, the race below still sees a failure.
    sectionsStarted.catch(() => undefined);
    await Promise.race([Promise.all([this.shell.whenSettled(), Promise.race([sectionsStarted, delay(holdMs)])]), delay(SSR_LIMITS.firstWarmMs)]);
  }

  async warm(next: (host: string | undefined) => Promise<SiteContext[]>, withinMs: number): Promise<void> {
    if (!this.sandbox || this.closed) return;
    const lists = await this.sites.readFor(next);
    this.sites.expect(lists);
    const upcoming = lists.flat();
    for (const site of upcoming) this.watch(site.config);
    const settled = (async () => {
      // A round under way may have started before these URLs were watched: then one more.
      await this.sources.poll();
      if (upcoming.some((site) => this.sources.unread(site))) await this.sources.poll();
      // Likewise a plan being made from the config before.
      await this.planner.replan();
      await this.planner.replan();
      await this.sections.whenSettled();
    })();
    await Promise.race([settled, delay(withinMs)]);
    // Served from now on: the known hosts' own reading names these builds.
    this.sites.expect([]);
  }

  async checkRender(section: SectionId, build: NodeBuild): Promise<string[]> {
    if (!this.sandbox) return [`not run: section code does not run on this server${this.closed ? ' (closing)' : ''}`];
    const [site] = await this.sites.current();
    if (!site) return ['not run: config.json cannot be read, so there is nothing to render the section with'];
    return this.sections.check(section, build, site);
  }

  state(): RenderWorkerState {
    return {
      counts: this.counts,
      pid: this.shell.pid,
      generation: this.shell.generation,
      sections: this.sections.state(),
      sandbox: this.sandbox?.mode,
      cachedPages: this.pages.size,
      cacheBytes: this.pages.bytes + this.shell.bytes + this.sections.bytes,
      styleBytes: this.sectionStyles.bytes,
      composedPages: this.pages.composedPages,
      heldManifests: this.sources.held(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.planner.close();
    this.sources.close();
    await Promise.all([this.shell.close(), this.sections.close()]);
    this.sandbox?.close();
  }

  /** Watches what a config.json names. */
  private watch(config: SiteConfig): void {
    this.sources.watchConfig(config);
  }

  /** The page last served at this address for this request's site, if it is whole and still kept (`known`). */
  private async knownPage(request: FastifyRequest, pathname: string, search: string): Promise<CachedPage | undefined> {
    const { options } = this;
    const site = await options.siteOf(request).then(
      (context) => context.site,
      () => undefined,
    );
    if (!site) return undefined;
    const page = this.known.get(site, pathname, search, request.visitor.origin, (kept) => this.pages.get(kept.key) === kept);
    if (!page) return undefined;
    // What pageFor notes of a visit, for the background work (the hosts warmed, the manifests polled).
    this.sites.noteVisit(site, request.visitor.host);
    this.watch(site.config);
    return page;
  }

  /**
   * The page for one request, from the cache or composed now; undefined when
   * it cannot be server-rendered in time (the client-rendered page is sent).
   * Everything a request costs the server is here, stage after stage. The
   * parts are waited for until the page around them could still be composed
   * and compressed by `deadline`.
   */
  private async pageFor(request: FastifyRequest, pathname: string, search: string, encoding: PageEncoding, deadline: number): Promise<CachedPage | undefined> {
    const { options, shell, sections } = this;
    const partsBy = deadline - this.costs.estimate(PAGE_FRAME_BYTES, encoding, this.pages.compressing);
    // Taken before the template is read: a template changed after this is never remembered as this one.
    const templateStamp = fileStamp(this.templateFile);
    const { host, origin } = request.visitor;
    const [site, template] = await Promise.all([
      options.siteOf(request).then(
        (context) => context.site,
        () => undefined,
      ),
      shell.readTemplate(),
    ]);
    if (!site || origin === undefined || template === undefined) return undefined;
    this.sites.noteVisit(site, host);
    this.watch(site.config);
    // Only what changes the page goes further (its key, the shell's links): an address with a new `?rt=N` is the same page.
    const language = languageFromSearch(search);
    const { overrides } = resolveRemotes(site.config.remotes, site.config.allowedRemoteOrigins, search);
    const query = pageQuery(language, overrides, site.config.preview ? previewTokenIn(search) : undefined);
    const { manifests, manifestHashes, hydration, stylesheets, builds, sources } = this.sources.inputsFor(site, language);

    // Every part is asked for at once; the shell then says which sections a visitor's override takes.
    const own = Object.keys(builds).flatMap((section) => {
      const build = builds[section];
      return build === undefined
        ? []
        : [{ section, failure: `the ${section} section is rendered in the browser`, result: sections.get(section, build, site, language, partsBy) }];
    });
    // The shell's only input from the manifests is the stylesheets it links: a section's new version that links the same ones keeps it.
    const shellKey = sha256(JSON.stringify([shell.generation, template.stamp, site.hash, language, pathname, query, origin, stylesheets]));
    const rendered = await shell.get(shellRequest(template, site, language, pathname, query, origin, stylesheets), shellKey, partsBy);
    if (!rendered) return undefined;

    const overridden = new Set(rendered.overridden);
    for (const id of overridden) {
      delete manifests[id];
      delete hydration[id];
    }
    const sectionParts = own.filter((part) => !overridden.has(part.section));
    const placement = placeParts(rendered.ids, candidates(sectionParts, await Promise.all(sectionParts.map((part) => part.result))));
    for (const refusal of placement.refusals) this.report(refusal);

    const key = pageKey(rendered, placement, manifests, manifestHashes);
    // Every section the page inlines a manifest for is in it: nothing left to the browser that a later request could fill.
    const whole = Object.keys(manifests).every((id) => placement.rendered.includes(id as SectionId));
    let page = this.pages.get(key);
    if (!page) {
      const named = pageScriptIn(rendered.html);
      const script = named ? await this.readPageScript(named) : undefined;
      // compose is synchronous: a page it adds between these two reads is this request's.
      const composed = this.pages.composedPages;
      page = this.composer.compose({ site, language, rendered, all: placement, manifests, manifestHashes, sources, hydration, script, encoding, deadline });
      if (this.pages.composedPages === composed) this.counts.cacheHits += 1;
      else this.counts.cacheMisses += 1;
    } else this.counts.cacheHits += 1;
    // A section compose left out for time makes another key.
    if (whole && page.key === key) this.known.remember(site, pathname, search, origin, templateStamp, page);
    return page;
  }
}
