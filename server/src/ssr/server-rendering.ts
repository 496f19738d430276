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
// supervisor.ts. A program may add a stage of its own (rendering-stage.ts: the
// benchmark's static sections); `npm run serve` adds none. This module wires
// the stages together and holds the one path a page request takes (`pageFor`).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Hydration } from '@portico/contract/hydration';
import { languageFromSearch } from '@portico/contract/languages';
import type { Manifest } from '@portico/contract/manifest';
import { resolveRemotes } from '@portico/contract/override';
import { SECTION_IDS, EXPOSED_SECTION, type SectionId } from '@portico/contract/sections';
import type { NodeBuild, ShellRequest } from '@portico/node-sections/protocol';
import type { SiteConfig } from '@portico/shared-config/config';
import type { Site, SiteContext } from '../site-context';
import { requestTarget } from '../static-files';
import { allowingPageScript, pageScriptIn, pageScriptReader } from './inline-page-script';
import { answerPage } from './page-answer';
import { PageCache, type CachedPage } from './page-cache';
import { composePage, placeParts, type CandidatePart } from './page-composition';
import { SECTION_WORKER_PATH, SHELL_WORKER_PATH, SSR_LIMITS } from './render-limits';
import type { RenderingStage, StagePart } from './rendering-stage';
import { chooseSandbox, type Sandbox, type SandboxOptions } from './sandbox';
import { ServedSites } from './served-sites';
import { nodeEntryOf, SectionSources } from './section-sources';
import { SectionStage, type SectionResult, type SectionWorkerState } from './section-stage';
import { SectionStyles } from './section-styles';
import { ShellStage, shellRequest } from './shell-stage';
import { WorkerPlanner } from './worker-plans';

export interface ServerRenderingOptions {
  rootDir: string;
  /**
   * Each config.json a visitor to this host may get now: one, or one per
   * cohort's releases while a canary runs. For the background work: every
   * one of them is warmed and rendered.
   */
  siteForHost: (host: string | undefined) => Promise<SiteContext[]>;
  /** The same for one request, once per request: the page, its headers and /config.json share it. */
  siteOf: (req: IncomingMessage) => Promise<SiteContext>;
  /** The host a request was made to (Host, or X-Forwarded-Host behind a trusted proxy). */
  hostOf: (req: IncomingMessage) => string | undefined;
  /** The page's security headers for this request and query. */
  pageHeaders: (req: IncomingMessage, search: string) => Promise<Record<string, string>>;
  /** The visitor-facing origin of the request. */
  originOf: (req: IncomingMessage) => string | undefined;
  budgetMs?: number;
  heapMb?: number;
  /** Off for each page rendered anew (measurements): the workers render every request. */
  cache?: boolean;
  /** PORTICO_SSR_SANDBOX and the workers' user; for tests, where bubblewrap and unshare are and whether the server is root. */
  sandbox?: Omit<SandboxOptions, 'workerFile'>;
  /** Stages a program that embeds the server adds (rendering-stage.ts); `npm run serve` adds none. */
  stages?: readonly RenderingStage[];
  /** A section's plan set aside after its workers' repeated deaths (SectionStageOptions.onSetAside). */
  onSetAside?: (section: SectionId, builds: string[], reason: string) => void;
  log: (line: string) => void;
}

export interface ServerRendering {
  /** Answers `/` and `/index.html` server-rendered, or calls `fallback` (the client-rendered index.html). */
  handle: (req: IncomingMessage, res: ServerResponse, fallback: () => Promise<void>) => Promise<void>;
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
  /** The sections' stylesheets the page links from its own origin (`/section-styles/…`). */
  sectionStyles: Pick<SectionStyles, 'handles' | 'answer'>;
  /** The workers and the caches, for measurements and tests. */
  worker: () => RenderWorkerState;
  close: () => Promise<void>;
}

export interface RenderWorkerState {
  /** The shell worker's. */
  pid: number | undefined;
  generation: number | undefined;
  /** Per section: its live worker, whether its plan is set aside, and the builds the live worker runs and the plan wants. */
  sections: Record<SectionId, SectionWorkerState>;
  /** How section code is contained here, or undefined when it does not run on this server. */
  sandbox: Sandbox['mode'] | undefined;
  cachedPages: number;
  cacheBytes: number;
}

/** What the served config names for the page's sections, as this server watches it. */
interface SectionInputs {
  /** Each manifest's text, inlined for the browser. */
  manifests: Partial<Record<SectionId, string>>;
  hydration: Partial<Record<SectionId, Hydration>>;
  stylesheets: ShellRequest['stylesheets'];
  /** The node build each section is rendered from here. */
  builds: Partial<Record<SectionId, string>>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/** A section's stylesheets, with the hashes its manifest gives, for the shell to link from the head. */
function sectionStylesheets(manifest: Manifest): { href: string; integrity?: string }[] {
  return (manifest.stylesheets[EXPOSED_SECTION] ?? []).map((href) => ({ href, integrity: manifest.hashes.get(href) }));
}

/** The log, each line once for a while: a failing section would say the same at every page. */
function onceEach(log: (line: string) => void): (line: string) => void {
  const reported = new Set<string>();
  return (line) => {
    if (reported.has(line)) return;
    if (reported.size > 200) reported.clear();
    reported.add(line);
    log(line);
  };
}

/**
 * The composed page rendered on the server from parts (docs/decisions.md,
 * "Section code on the server"): the shell by the shell worker, with a slot
 * per section; each section by a worker of its own that runs that team's
 * node build inside an OS sandbox; the front server (this) puts each
 * section's checked HTML into its slot, the section's stylesheets into the
 * head and the hydration data at the end. Anything short of a part in time
 * leaves that part to the browser (the whole page, for the shell); a visitor
 * never waits longer than the budget.
 */
export function serverRendering(options: ServerRenderingOptions): ServerRendering | undefined {
  const { log } = options;
  const shellFile = path.join(options.rootDir, SHELL_WORKER_PATH);
  const sectionFile = path.join(options.rootDir, SECTION_WORKER_PATH);
  if (!existsSync(shellFile) || !existsSync(sectionFile)) {
    log(`no server workers in ${path.dirname(shellFile)} (a host built before them?): pages are rendered in the browser`);
    return undefined;
  }
  const budgetMs = options.budgetMs ?? SSR_LIMITS.budgetMs;
  const heapMb = options.heapMb ?? SSR_LIMITS.heapMb;
  const caching = options.cache !== false;
  const stages = options.stages ?? [];
  for (const stage of stages) log(`a rendering stage this program added, not for a site: ${stage.description}`);
  const templateFile = path.join(options.rootDir, 'host/dist/index.html');
  const readPageScript = pageScriptReader(path.dirname(templateFile));
  const report = onceEach(log);
  const sectionStyles = new SectionStyles(log);
  const pages = new PageCache(caching);
  let sandbox: Sandbox | undefined;
  let closed = false;

  const sites = new ServedSites(options.siteForHost, () => void planner.replan());
  const sources = new SectionSources({ onChange: () => void planner.replan(), log, report });
  const stageSources = sources.forStages();
  const watch = (config: SiteConfig) => {
    sources.watchConfig(config);
    for (const stage of stages) stage.watch(stageSources);
  };
  const current = () => sites.current();
  const shell = new ShellStage({ workerFile: shellFile, templateFile, heapMb, caching, sites: current, onSwitch: () => pages.clear(), log });
  const sections = new SectionStage({ heapMb, caching, budgetMs, sites: current, onSwitch: () => pages.clear(), onSetAside: options.onSetAside, log, report });
  const planner = new WorkerPlanner({ sites, sources, sections, stages, stageSources, watch, active: () => sandbox !== undefined && !closed });

  /** The configured sections' manifests as this server watches them: inlined for the browser, and the builds rendered here. */
  function sectionInputs(site: Site): SectionInputs {
    const inputs: SectionInputs = { manifests: {}, hydration: {}, stylesheets: {}, builds: {} };
    for (const id of SECTION_IDS) {
      const watched = sources.pinned(site, id);
      if (!watched) continue;
      inputs.manifests[id] = watched.text;
      if (watched.read && 'manifest' in watched.read) {
        inputs.stylesheets[id] = sectionStyles.local(watched.read.manifest.url, sectionStylesheets(watched.read.manifest));
        inputs.hydration[id] = watched.read.manifest.hydration;
      }
      const entry = nodeEntryOf(watched);
      if (entry) inputs.builds[id] = entry.integrity;
    }
    return inputs;
  }

  /** The parts a page's candidates came to, with their checked HTML; the rest are left to the browser. */
  const candidates = (parts: readonly { section: SectionId; failure: string; extra?: boolean }[], results: readonly (SectionResult | undefined)[]) =>
    parts.flatMap((part, index): CandidatePart[] => {
      const result = results[index];
      return result && 'html' in result ? [{ ...part, html: result.html, ids: result.ids }] : [];
    });

  /**
   * The page for one request, from the cache or composed now; undefined when
   * it cannot be server-rendered in time (the client-rendered page is sent).
   * Everything a request costs the server is here, stage after stage.
   */
  async function pageFor(req: IncomingMessage, pathname: string, search: string): Promise<CachedPage | undefined> {
    const deadline = performance.now() + budgetMs;
    const host = options.hostOf(req);
    const origin = options.originOf(req);
    const [site, template] = await Promise.all([options.siteOf(req).then((context) => context.site, () => undefined), shell.readTemplate()]);
    if (!site || origin === undefined || template === undefined) return undefined;
    sites.noteVisit(site, host);
    watch(site.config);
    const language = languageFromSearch(search);
    const { manifests, hydration, stylesheets, builds } = sectionInputs(site);

    // Every part is asked for at once; the shell first decides which sections a visitor's override takes.
    const own = SECTION_IDS.flatMap((section) => {
      const build = builds[section];
      return build === undefined ? [] : [{ section, failure: `the ${section} section is rendered in the browser`, result: sections.get(section, build, site, language, deadline) }];
    });
    const render = (section: SectionId, build: string, failure: string) => sections.get(section, build, site, language, deadline, failure);
    const extras: StagePart[] = stages.length === 0 ? [] : stages.flatMap((stage) => stage.parts({ site, language, hydration, builds, render }, stageSources));
    const shellKey = sha256(JSON.stringify([shell.generation, template.stamp, site.hash, language, pathname, search, origin, Object.values(manifests).map(sha256)]));
    const rendered = await shell.get(shellRequest(template, site, language, pathname, search, origin, stylesheets), shellKey, deadline);
    if (!rendered) return undefined;

    const overridden = new Set(rendered.overridden);
    for (const id of SECTION_IDS) {
      if (!overridden.has(id)) continue;
      delete manifests[id];
      delete hydration[id];
    }
    const sectionParts = own.filter((part) => !overridden.has(part.section));
    const ownParts = candidates(sectionParts, await Promise.all(sectionParts.map((part) => part.result)));
    // An extra goes after its section's HTML only: it is not waited for when the section is left to the browser.
    const extraParts = extras.filter((part) => ownParts.some(({ section }) => section === part.section)).map((part) => ({ ...part, extra: true }));
    const extraResults = extraParts.length === 0 ? [] : await Promise.all(extraParts.map((part) => part.result));
    const placement = placeParts(rendered.ids, [...ownParts, ...candidates(extraParts, extraResults)]);
    for (const refusal of placement.refusals) report(refusal);

    const key = JSON.stringify([rendered.key, placement.rendered.map((id) => sha256(placement.filled.get(id)!)), Object.keys(manifests)]);
    const cached = pages.get(key);
    if (cached) return cached;
    const problems = site.problems.map(({ field, message }) => ({ field, message }));
    const { refused: refusedOverrides } = resolveRemotes(site.config.remotes, site.config.allowedRemoteOrigins, search);
    const named = pageScriptIn(rendered.html);
    const script = named ? await readPageScript(named) : undefined;
    const data = { config: site.raw, language, manifests, rendered: placement.rendered, hydration, problems, refusedOverrides };
    const page = composePage({ shell: rendered, placement, data, script });
    return pages.add(key, page.html, page.script);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, fallback: () => Promise<void>): Promise<void> {
    const target = requestTarget(req.url);
    if (!target || (target.pathname !== '/' && target.pathname !== '/index.html')) return fallback();
    const page = await pageFor(req, target.pathname, target.search);
    if (!page) return fallback();

    const policy = await options.pageHeaders(req, target.search);
    // The manifests are in the page: preloading them would fetch each twice.
    delete policy.Link;
    const headers = page.script ? allowingPageScript(policy, page.script) : policy;
    await answerPage(req, res, pages.encoded(page), headers);
  }

  async function start(hostHeaders: readonly string[]): Promise<void> {
    for (const host of hostHeaders) sites.noteHost(host);
    const choice = await chooseSandbox({ ...options.sandbox, workerFile: sectionFile });
    if (choice.sandbox) {
      sandbox = choice.sandbox;
      sections.useSandbox(sandbox);
      log(`section code runs on the server in ${sandbox.description}`);
      if (choice.warning) log(`warning: ${choice.warning}`);
    } else {
      log(`sections are rendered in the browser only: ${choice.problem}`);
    }
    await shell.start();
    await planner.readConfigs();
    await sources.poll();
    await planner.replan();
    await Promise.race([Promise.all([shell.whenSettled(), sections.whenSettled()]), delay(SSR_LIMITS.firstWarmMs)]);
  }

  async function warm(next: (host: string | undefined) => Promise<SiteContext[]>, withinMs: number): Promise<void> {
    if (!sandbox || closed) return;
    const upcoming = await sites.readFor(next);
    sites.expect(upcoming);
    for (const site of upcoming) watch(site.config);
    const settled = (async () => {
      // A round under way may have started before these URLs were watched: then one more.
      await sources.poll();
      if (upcoming.some((site) => sources.unread(site))) await sources.poll();
      // Likewise a plan being made from the config before.
      await planner.replan();
      await planner.replan();
      await sections.whenSettled();
    })();
    await Promise.race([settled, delay(withinMs)]);
    // Served from now on: the known hosts' own reading names these builds.
    sites.expect([]);
  }

  async function checkRender(section: SectionId, build: NodeBuild): Promise<string[]> {
    if (!sandbox) return [`not run: section code does not run on this server${closed ? ' (closing)' : ''}`];
    const [site] = await sites.current();
    if (!site) return ['not run: config.json cannot be read, so there is nothing to render the section with'];
    return sections.check(section, build, site);
  }

  return {
    handle,
    start,
    warm,
    checkRender,
    sectionStyles,
    worker: () => ({
      pid: shell.pid,
      generation: shell.generation,
      sections: sections.state(),
      sandbox: sandbox?.mode,
      cachedPages: pages.size,
      cacheBytes: pages.bytes + shell.bytes + sections.bytes,
    }),
    close: async () => {
      closed = true;
      planner.close();
      sources.close();
      await Promise.all([shell.close(), sections.close()]);
      sandbox?.close();
    },
  };
}
