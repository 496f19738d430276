import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { isSri, type Manifest, type NodeEntry } from '@portico/contract/manifest';
import { assertSri, fetchVerified } from '@portico/node-sections';
import { pageDataScript } from '@portico/contract/page-data';
import { resolveRemotes } from '@portico/contract/override';
import type { Hydration } from '@portico/contract/hydration';
import {
  PAGE_DATA_SLOT,
  STYLES_SLOT,
  type FromSectionWorker,
  type FromShellWorker,
  type NodeBuild,
  type RenderedShell,
  type ShellRequest,
  type ToSectionWorker,
  type ToShellWorker,
} from '@portico/node-sections/protocol';
import type { SiteConfig } from '@portico/shared-config/config';
import { EXPOSED_SECTION, SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { languageFromSearch, LANGUAGES, type Language } from '@portico/contract/languages';
import { requestTarget } from '../static-files';
import { ByteCache } from './byte-cache';
import type { Site, SiteContext } from '../site-context';
import { ManifestWatcher, type WatchedManifest } from './manifest-watcher';
import { answerPage, compressPage, type PageEncoding } from './page-answer';
import { chooseSandbox, containedNodeOptions, type Sandbox, type SandboxOptions } from './sandbox';
import { checkSectionHtml, idsIn } from './section-html';
import { SectionStyles } from './section-styles';
import { allowingPageScript, pageScriptIn, pageScriptReader, withInlinePageScript, type PageScriptCode } from './inline-page-script';
import { Supervisor, type Plan } from './supervisor';
import { WorkerProcess } from './worker-process';

/** The node build a watched manifest names (read once, when it was fetched); undefined where it names none the server runs. */
function nodeEntryOf(watched: WatchedManifest): NodeEntry | undefined {
  const node = watched.read && 'manifest' in watched.read ? watched.read.manifest.nodeEntry : undefined;
  return node && 'url' in node ? node : undefined;
}

/** A section's stylesheets, with the hashes its manifest gives, for the shell to link from the head. */
function sectionStylesheets(manifest: Manifest): { href: string; integrity?: string }[] {
  return (manifest.stylesheets[EXPOSED_SECTION] ?? []).map((href) => ({ href, integrity: manifest.hashes.get(href) }));
}

/** The host's server workers, as its build writes them (webpack/src/server-workers-build.ts). */
export const SHELL_WORKER_PATH = 'host/dist-node/shell-worker.js';
export const SECTION_WORKER_PATH = 'host/dist-node/section-worker.js';

/**
 * The documented limits of server rendering (docs/server.md, "Server rendering").
 * Each bounds what a visitor or a section team could otherwise make the
 * server spend.
 */
export const SSR_LIMITS = {
  /** How long a page may take on the server before the client-rendered page is sent instead. */
  budgetMs: 400,
  /** V8's heap limit per worker; the RSS watchdog below is the real cap. */
  heapMb: 128,
  /** A worker's resident memory (its whole process tree) over this, and it is killed. */
  workerMemoryMb: 256,
  /** A manifest larger than this is neither inlined in the page nor its section rendered on the server. */
  manifestInlineBytes: 64 * 1024,
  /** A section's HTML larger than this is not put into the page (the section is rendered in the browser). */
  sectionHtmlBytes: 256 * 1024,
  /** The composed pages kept, with their compressed copies. */
  pageCacheBytes: 64 * 1024 * 1024,
  /** The shells and the sections' HTML kept. */
  shellCacheBytes: 16 * 1024 * 1024,
  sectionCacheBytes: 16 * 1024 * 1024,
  /** `npm run serve` waits this long at most for the first workers to be warm, then serves anyway. */
  firstWarmMs: 30_000,
} as const;

export const DEFAULT_SSR_BUDGET_MS = SSR_LIMITS.budgetMs;

const MANIFEST_POLL_MS = 1000;
const MANIFEST_TIMEOUT_MS = 3000;
/** A section's render unanswered this long means its worker loops: it is killed. */
const SECTION_RENDER_KILL_MS = 3000;
/** Evaluating a section's builds (top-level code) unanswered this long: killed. */
const SECTION_LOAD_KILL_MS = 5000;
const SHELL_RENDER_KILL_MS = 5000;
const WORKER_START_MS = 10_000;
/** A section that failed to render is asked again after this long, not at every page. */
const FAILED_RENDER_MS = 5000;
/** A node build that could not be fetched is tried again after this long. */
const FAILED_FETCH_MS = 5000;
/** How many distinct host names a new worker warms up with (the default config.json differs per host). */
const WARM_HOSTS = 4;
/** How many previewed releases of one section are kept warm besides its live one (least recently opened first out). */
export const PREVIEW_SITES = 2;
/** The largest answer a worker may send: a section's HTML (capped again when checked), a shell with its template. */
const SECTION_MESSAGE_BYTES = 2 * SSR_LIMITS.sectionHtmlBytes;
const SHELL_MESSAGE_BYTES = 8 * 1024 * 1024;

export interface ServerRenderingOptions {
  rootDir: string;
  /** config.json as a visitor who asked for this host gets it (the default config follows the host), read and parsed once: for the background work. */
  /**
   * Each config.json a visitor to this host may get now: one, or one per
   * cohort's releases while a canary runs, the first being what a visitor
   * outside every canary gets. For the background work: every one of them
   * is warmed and rendered; the first one's builds by each section's own
   * worker, a candidate's build by a worker of its own.
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
  /**
   * The benchmark's scaling seam (PORTICO_BENCH_STATIC_SECTIONS, bench/README.md):
   * manifests of more sections that declare themselves static, rendered in
   * Home's worker and put after Home's HTML in its panel, as the benchmark's
   * client-rendered "+N remotes" build puts them. The browser is never told
   * of them: what a static section costs a visitor is its HTML. One that is
   * not static is left out, and all are while Home is not rendered on the
   * server or is not static itself (its island would hydrate over them).
   */
  staticExtras?: readonly string[];
  /**
   * What this server sees of a section's build itself, for the release
   * store (the canary judge, `status`): a render failing, its workers set
   * aside after repeated deaths, and running again after that. `pins` are
   * the manifest pins (config.json's remoteIntegrity) that name the build:
   * how the caller knows the release.
   */
  onSignal?: (signal: SectionSignal) => void;
  log: (line: string) => void;
}

export interface SectionSignal {
  section: SectionId;
  pins: string[];
  kind: 'render-failed' | 'set-aside' | 'running-again';
  detail: string;
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

export interface WorkerState {
  pid: number | undefined;
  generation: number | undefined;
}

export interface RenderWorkerState {
  /** The shell worker's. */
  pid: number | undefined;
  generation: number | undefined;
  /** Per section: its live worker, whether its plan is set aside, and the builds (node-build hashes) the live worker runs and the plan wants. */
  sections: Record<SectionId, WorkerState & { quarantined: boolean; builds: string[]; wanted: string[] }>;
  /** How section code is contained here, or undefined when it does not run on this server. */
  sandbox: Sandbox['mode'] | undefined;
  cachedPages: number;
  cacheBytes: number;
}

type ShellWorker = WorkerProcess<ToShellWorker, FromShellWorker>;
type SectionWorker = WorkerProcess<ToSectionWorker, FromSectionWorker>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** A composed page as cached: its bytes in each encoding a visitor asked for, each made once. */
interface CachedPage {
  key: string;
  html: Buffer;
  /** The identity ETag; an encoding's is this with the encoding's name added (the bytes differ). */
  hash: string;
  bodies: Map<PageEncoding, Promise<Buffer>>;
  /** What it holds, for the cache's byte budget. */
  bytes: number;
  /** The page script inlined in it, whose hash the page's CSP allows. */
  script?: PageScriptCode;
}

interface Template {
  text: string;
  stamp: string;
}


/** A section's HTML as its worker answered it, checked: or the reason it is left to the browser. */
type SectionResult = { html: string; ids: ReadonlySet<string> } | { failed: string; at: number };

interface ShellEntry extends RenderedShell {
  ids: ReadonlySet<string>;
  key: string;
}

interface Flight<T> {
  started: number;
  promise: Promise<T>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/**
 * The composed page rendered on the server from parts (docs/decisions.md,
 * "Section code on the server"):
 * - the **shell** (head, nav, notices, footer: the host's code only) by the
 *   shell worker, with a slot per section;
 * - each **section** by a worker of its own that runs that team's node build
 *   inside an OS sandbox and renders that section alone, from the config and
 *   the language only;
 * - the front server (this) puts each section's checked HTML into its slot,
 *   the section's stylesheets into the head and the hydration data at the end.
 * Anything short of a part in time leaves that part to the browser (the
 * whole page, for the shell); a visitor never waits longer than the budget.
 */
export function serverRendering(options: ServerRenderingOptions): ServerRendering | undefined {
  const shellFile = path.join(options.rootDir, SHELL_WORKER_PATH);
  const sectionFile = path.join(options.rootDir, SECTION_WORKER_PATH);
  if (!existsSync(shellFile) || !existsSync(sectionFile)) {
    options.log(`no server workers in ${path.dirname(shellFile)} (a host built before them?): pages are rendered in the browser`);
    return undefined;
  }
  const budgetMs = options.budgetMs ?? SSR_LIMITS.budgetMs;
  const heapMb = options.heapMb ?? SSR_LIMITS.heapMb;
  const caching = options.cache !== false;
  const staticExtras = options.staticExtras ?? [];
  if (staticExtras.length > 0) options.log(`benchmark seam on (PORTICO_BENCH_STATIC_SECTIONS): ${staticExtras.length} static section(s) after Home, not for a site`);
  const templateFile = path.join(options.rootDir, 'host/dist/index.html');
  const pages = new ByteCache<CachedPage>(SSR_LIMITS.pageCacheBytes);
  const sectionStyles = new SectionStyles(options.log);
  const readPageScript = pageScriptReader(path.dirname(templateFile));
  const shells = new ByteCache<ShellEntry>(SSR_LIMITS.shellCacheBytes);
  const sectionResults = new ByteCache<SectionResult>(SSR_LIMITS.sectionCacheBytes);
  const shellFlights = new Map<string, Flight<ShellEntry | undefined>>();
  const sectionFlights = new Map<string, Flight<SectionResult | undefined>>();
  let sandbox: Sandbox | undefined;
  let closed = false;

  /** Host names visitors came by (the default config.json names remotes on the visitor's host), latest last. */
  const knownHosts: string[] = [];
  const noteHost = (host: string | undefined) => {
    if (host === undefined || knownHosts.at(-1) === host) return;
    const at = knownHosts.indexOf(host);
    if (at !== -1) knownHosts.splice(at, 1);
    knownHosts.push(host);
    if (knownHosts.length > WARM_HOSTS) knownHosts.shift();
  };

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

  /** Each config.json for `host` (read once and parsed once) that can be served. */
  async function sitesFor(host: string | undefined): Promise<Site[]> {
    return (await options.siteForHost(host)).flatMap((context) => (context.site ? [context.site] : []));
  }

  // --- The manifests, polled in the background, and the node builds they name.

  const watcher = new ManifestWatcher({
    intervalMs: MANIFEST_POLL_MS,
    timeoutMs: MANIFEST_TIMEOUT_MS,
    maxBytes: SSR_LIMITS.manifestInlineBytes,
    onChange: () => void replan(),
    log: options.log,
  });
  /** Watches the manifests a config.json names, so the next poll fetches any that are new. */
  const watchRemotes = (config: SiteConfig) => {
    for (const id of SECTION_IDS) {
      const url = config.remotes[id];
      if (url !== undefined) watcher.current(url, id);
    }
    for (const url of staticExtras) watcher.current(url, 'home');
  };
  /** The node build a static extra's manifest names (staticExtras); undefined while it is unread, and for one that is not static. */
  const staticExtraEntry = (url: string): NodeEntry | undefined => {
    const watched = watcher.current(url, 'home');
    if (!watched.read || !('manifest' in watched.read)) return undefined;
    if (watched.read.manifest.hydration.mode !== 'static') {
      report(`the extra section ${url} is left out: only a static section can be an extra (it is never hydrated)`);
      return undefined;
    }
    return nodeEntryOf(watched);
  };
  /** Each round: the current config.json of the known hosts names what is watched, so a change is seen without a visitor. */
  const timer = setInterval(() => void readConfigs(), MANIFEST_POLL_MS);
  timer.unref();
  let lastConfigs = '';
  async function readConfigs(): Promise<void> {
    const sites = await currentSites();
    for (const site of sites) watchRemotes(site.config);
    // An edit that names the same manifests changes no plan; one that names others does, at once if they are known.
    const configs = sites.map((site) => site.hash).join(' ');
    if (configs !== lastConfigs) {
      lastConfigs = configs;
      void replan();
    }
  }

  const builds = new Map<string, Promise<NodeBuild | { failed: string; at: number }>>();
  /** The node build of a manifest, fetched by this server from the manifest's origin and checked against its hash; shared by every URL that names the same build. */
  function nodeBuildOf(url: string, integrity: string): Promise<NodeBuild | { failed: string; at: number }> {
    let build = builds.get(integrity);
    if (!build) {
      build = fetchVerified(url, integrity).then(
        (bytes): NodeBuild => ({ key: integrity, url, code: bytes.toString('utf8') }),
        (error: unknown) => ({ failed: (error as Error).message, at: Date.now() }),
      );
      builds.set(integrity, build);
    }
    return build;
  }

  /** Per section and build: the manifest pins that name it (the releases it is), for the signals. */
  const pinsOf = new Map<string, Set<string>>();
  const notePin = (section: SectionId, build: string, pin: string | undefined) => {
    if (pin === undefined) return;
    const key = `${section} ${build}`;
    let pins = pinsOf.get(key);
    if (!pins) {
      if (pinsOf.size > 256) pinsOf.clear();
      pinsOf.set(key, (pins = new Set()));
    }
    pins.add(pin);
  };
  /** The builds a supervisor set aside, per section: the ones told to run again once a worker runs them. */
  const setAside = new Set<string>();
  const signal = (section: SectionId, builds: readonly string[], kind: SectionSignal['kind'], detail: string, pin?: string) => {
    const pins = pin === undefined ? builds.flatMap((build) => [...(pinsOf.get(`${section} ${build}`) ?? [])]) : [pin];
    if (pins.length > 0) options.onSignal?.({ section, pins, kind, detail });
  };

  /** Per section: its worker supervisor, and which builds its live worker has loaded. */
  const loaded = new WeakMap<SectionWorker, Map<string, string | undefined>>();
  const sectionSupervisor = (id: SectionId, kind: 'worker' | 'preview worker' | 'canary worker') => {
    const supervisor: Supervisor<SectionWorker> = new Supervisor<SectionWorker>({
      name: `the ${id} section's ${kind}`,
      start: () =>
        sandbox &&
        new WorkerProcess<ToSectionWorker, FromSectionWorker>({
          name: `${id} section ${kind}`,
          launch: sandbox.launch(heapMb),
          maxMessageBytes: SECTION_MESSAGE_BYTES,
          memoryLimitMb: SSR_LIMITS.workerMemoryMb,
          startMs: WORKER_START_MS,
          log: options.log,
        }),
      log: options.log,
      onLive: (worker) => {
        // Pages made with another generation's sections are not served again.
        if (!worker) return;
        pages.clear();
        const again = (supervisor.liveKey?.split(' ') ?? []).filter((build) => setAside.delete(`${id} ${build}`));
        if (again.length > 0) signal(id, again, 'running-again', `the ${id} section's ${kind} runs it again`);
      },
      onSetAside: (key, reason) => {
        const builds = key.split(' ');
        for (const build of builds) setAside.add(`${id} ${build}`);
        signal(id, builds, 'set-aside', `the ${id} section's ${kind}: ${reason}`);
      },
    });
    return supervisor;
  };
  const sections = Object.fromEntries(SECTION_IDS.map((id) => [id, sectionSupervisor(id, 'worker')])) as Record<SectionId, Supervisor<SectionWorker>>;
  /**
   * A previewed release's build, or a canary's candidate, in a worker of its
   * own (by section and build): neither ever restarts the live section's
   * worker, and a candidate that loops or dies is set aside alone (its
   * workers' deaths are its own, not the active release's). At most
   * PREVIEW_SITES previews per section are kept, the least recently opened
   * closed.
   */
  const previewWorkers = new Map<string, Supervisor<SectionWorker>>();
  const previewKey = (section: SectionId, build: string) => `${section} ${build}`;

  /** The configs about to be served (see `warm`), per known host (the first: outside every canary), for a while: their builds are in every plan. */
  let upcoming: Site[][] = [];
  /**
   * Preview visits' configs (config.preview set), latest last, at most
   * PREVIEW_SITES per section: their builds are kept warm as well, so a
   * preview link is server-rendered like the live page.
   */
  const previews: Site[] = [];
  function notePreview(site: Site): void {
    const section = site.config.preview?.section;
    if (!section) return;
    const at = previews.findIndex((other) => other.hash === site.hash);
    if (at !== -1) {
      if (at === previews.length - 1) return;
      previews.splice(at, 1);
    }
    previews.push(site);
    const ofSection = previews.filter((other) => other.config.preview?.section === section);
    if (ofSection.length > PREVIEW_SITES) previews.splice(previews.indexOf(ofSection[0]!), 1);
    void replan();
  }

  /**
   * The sites of the known hosts, read now, and the upcoming ones: all of
   * them, and the hashes of each host's first (what a visitor outside every
   * canary gets), whose builds the sections' own workers run.
   */
  async function plannedSites(): Promise<{ all: Site[]; primary: ReadonlySet<string> }> {
    const perHost = await Promise.all(knownHosts.map((host) => sitesFor(host).catch((): Site[] => [])));
    const lists = [...perHost, ...upcoming];
    const byHash = new Map(lists.flat().map((site) => [site.hash, site]));
    return { all: [...byHash.values()], primary: new Set(lists.flatMap((sites) => (sites[0] ? [sites[0].hash] : []))) };
  }

  /** The sites a new worker warms up with. */
  async function currentSites(): Promise<Site[]> {
    return (await plannedSites()).all;
  }

  /** Loads the plan's builds into a new section worker, then renders each in every language with the current config. */
  async function prepareSection(section: SectionId, wanted: NodeBuild[], worker: SectionWorker, sites?: readonly Site[]): Promise<boolean> {
    const answer = await worker.ask({ type: 'load', section, builds: wanted }, { answerWithinMs: SECTION_LOAD_KILL_MS, killAfterMs: SECTION_LOAD_KILL_MS });
    if (answer?.type !== 'loaded' || !Array.isArray(answer.failed)) return false;
    const refused = new Map(answer.failed.map(({ key, reason }) => [String(key), String(reason).slice(0, 300)]));
    for (const [key, reason] of refused) {
      options.log(`the ${section} section's node build ${key.slice(0, 19)}… is not rendered on the server: ${reason}`);
      signal(section, [key], 'render-failed', `its node build failed to load: ${reason}`);
    }
    loaded.set(worker, new Map(wanted.map(({ key }) => [key, refused.get(key)])));
    for (const site of sites ?? (await currentSites())) {
      for (const build of wanted.filter(({ key }) => !refused.has(key))) {
        for (const language of LANGUAGES) {
          const result = await renderSection(worker, section, build.key, site, language);
          if (!worker.alive) return false;
          if (result && 'failed' in result) signal(section, [build.key], 'render-failed', result.failed, site.config.remoteIntegrity?.[section]);
          if (result && caching) sectionResults.set(sectionKey(section, build.key, site, language), result, resultBytes(result));
        }
      }
    }
    return worker.alive;
  }

  /** What each section's worker should run now: the builds of the manifests named for it lately, fetched and checked here. */
  let replanning: Promise<void> | undefined;
  let replanAgain = false;
  function replan(): Promise<void> {
    if (replanning) {
      replanAgain = true;
      return replanning;
    }
    replanning = replanSections().finally(() => {
      replanning = undefined;
      if (replanAgain && !closed) {
        replanAgain = false;
        void replan();
      }
    });
    return replanning;
  }

  /**
   * Each section's plan: the node builds of the manifests that the current
   * config.json of the known hosts names for it, read now (not the last
   * request's): a build the config no longer names is not loaded by the next
   * generation, so a rolled-back build never runs again.
   */
  async function replanSections(): Promise<void> {
    if (!sandbox || closed) return;
    const { all: sites, primary: firsts } = await plannedSites();
    // What this plan is made from: the background reading replans when the sites differ from these. A plan made
    // with upcoming sites (warm) is then made again once they are served, even when the sites read before it were
    // the same as those now (an activation and its rollback within one reading).
    lastConfigs = sites.map((site) => site.hash).join(' ');
    // No host known yet: every site is everyone's.
    const primary = firsts.size > 0 ? firsts : new Set(sites.map((site) => site.hash));
    let retryLater = false;
    /** The node build the manifest at `url` names for section `id`, fetched and checked here; undefined when there is none to run (yet). */
    const buildAt = async (url: string, id: SectionId, pin: string | undefined): Promise<NodeBuild | undefined> => {
      const watched = watcher.current(url, id);
      const entry = nodeEntryOf(watched);
      if (!entry || watched.text === undefined || watched.hash === undefined) return undefined;
      if (pin !== undefined && !matchesPin(watched.text, watched.hash, pin)) return undefined;
      let build = await nodeBuildOf(entry.url, entry.integrity);
      if ('failed' in build && Date.now() - build.at > FAILED_FETCH_MS) {
        builds.delete(entry.integrity);
        build = await nodeBuildOf(entry.url, entry.integrity);
      }
      if ('failed' in build) {
        report(`the ${id} section's node build ${entry.url} is not rendered on the server: ${build.failed}`);
        retryLater = true;
        return undefined;
      }
      return build;
    };
    /** The node build `site` names for section `id`. */
    const buildFor = async (site: Site, id: SectionId): Promise<NodeBuild | undefined> => {
      const url = site.config.remotes[id];
      const build = url === undefined ? undefined : await buildAt(url, id, site.config.remoteIntegrity?.[id]);
      if (build) notePin(id, build.key, site.config.remoteIntegrity?.[id]);
      return build;
    };
    /** Each build only a canary's cohort gets, by section and build: a worker of its own, warmed with the sites that name it. */
    const apart = new Map<string, { id: SectionId; build: NodeBuild; sites: Site[] }>();
    for (const id of SECTION_IDS) {
      const wanted = new Map<string, NodeBuild>();
      const others: [Site, NodeBuild][] = [];
      for (const site of sites) {
        const build = await buildFor(site, id);
        if (build && primary.has(site.hash)) wanted.set(build.key, build);
        else if (build) others.push([site, build]);
      }
      for (const [site, build] of others) {
        if (wanted.has(build.key)) continue;
        const key = previewKey(id, build.key);
        const known = apart.get(key);
        if (known) known.sites.push(site);
        else apart.set(key, { id, build, sites: [site] });
      }
      // The benchmark's static extras run beside Home's builds, in its worker.
      if (id === 'home' && wanted.size > 0) {
        for (const url of staticExtras) {
          const build = staticExtraEntry(url) && (await buildAt(url, 'home', undefined));
          if (build) wanted.set(build.key, build);
        }
      }
      const list = [...wanted.values()];
      const plan: Plan<SectionWorker> | undefined =
        list.length === 0 ? undefined : { key: list.map(({ key }) => key).sort().join(' '), prepare: (worker) => prepareSection(id, list, worker) };
      sections[id].want(plan);
    }
    // Each candidate's build a section's own worker does not run: a worker of its own, warmed with its cohorts' configs.
    const previewing = new Set<string>();
    for (const [key, { id, build, sites: naming }] of apart) {
      previewing.add(key);
      let supervisor = previewWorkers.get(key);
      if (!supervisor) {
        supervisor = sectionSupervisor(id, 'canary worker');
        previewWorkers.set(key, supervisor);
      }
      supervisor.want({ key: build.key, prepare: (worker) => prepareSection(id, [build], worker, naming) });
    }
    // Each previewed build the live plan does not run: a worker of its own, warmed with the preview's config.
    for (const site of previews) {
      const id = site.config.preview?.section;
      const build = id && (await buildFor(site, id));
      if (!id || !build || sections[id].planKey?.split(' ').includes(build.key)) continue;
      const key = previewKey(id, build.key);
      if (previewing.has(key)) continue;
      previewing.add(key);
      let supervisor = previewWorkers.get(key);
      if (!supervisor) {
        supervisor = sectionSupervisor(id, 'preview worker');
        previewWorkers.set(key, supervisor);
      }
      supervisor.want({ key: build.key, prepare: (worker) => prepareSection(id, [build], worker, [site]) });
    }
    for (const [key, supervisor] of previewWorkers) {
      if (previewing.has(key)) continue;
      previewWorkers.delete(key);
      void supervisor.close();
    }
    // The code of builds no plan names is not kept.
    const inPlans = new Set([...SECTION_IDS.flatMap((id) => sections[id].planKey?.split(' ') ?? []), ...[...previewWorkers.values()].map((supervisor) => supervisor.planKey ?? '')]);
    for (const key of builds.keys()) if (!inPlans.has(key)) builds.delete(key);
    if (retryLater) setTimeout(() => void replan(), FAILED_FETCH_MS).unref();
  }

  // --- The shell worker: the host's own code, trusted, not sandboxed, but with no secrets and Node's permission model.

  const shellSupervisor = new Supervisor<ShellWorker>({
    name: 'the shell worker',
    start: () =>
      new WorkerProcess<ToShellWorker, FromShellWorker>({
        name: 'shell worker',
        launch: { file: process.execPath, args: [...containedNodeOptions(shellFile, heapMb), shellFile], env: { NODE_ENV: 'production' } },
        maxMessageBytes: SHELL_MESSAGE_BYTES,
        memoryLimitMb: SSR_LIMITS.workerMemoryMb,
        startMs: WORKER_START_MS,
        log: options.log,
      }),
    log: options.log,
    // The host's own code is never set aside: it is restarted, at most every 30 s.
    quarantineAfter: Number.POSITIVE_INFINITY,
    onLive: () => {
      shells.clear();
      pages.clear();
    },
  });

  async function prepareShell(worker: ShellWorker): Promise<boolean> {
    const page = await readTemplate();
    if (!page) return worker.alive;
    for (const site of await currentSites()) {
      for (const language of LANGUAGES) {
        const request = shellRequest(page, site, language, '/', language === 'en' ? '' : '?type=2', 'http://localhost', {});
        const answer = await worker.ask({ type: 'render', page: request }, { answerWithinMs: SHELL_RENDER_KILL_MS, killAfterMs: SHELL_RENDER_KILL_MS });
        if (!worker.alive) return false;
        if (answer?.type !== 'shell') options.log(`the shell worker could not render a page while warming: ${answer?.type === 'failed' ? answer.reason : 'no answer'}`);
      }
    }
    return worker.alive;
  }

  function shellRequest(
    page: Template,
    site: Site,
    language: Language,
    pathname: string,
    search: string,
    origin: string,
    stylesheets: ShellRequest['stylesheets'],
  ): ShellRequest {
    return { template: page.text, language, pathname, search, origin, config: site.config, problems: site.problems, stylesheets };
  }

  async function shellFor(request: ShellRequest, key: string, deadline: number): Promise<ShellEntry | undefined> {
    const cached = caching ? shells.get(key) : undefined;
    if (cached) return cached;
    const worker = shellSupervisor.worker;
    if (!worker) return undefined;
    let flight = shellFlights.get(key);
    if (!flight) {
      const promise = worker
        .ask({ type: 'render', page: request }, { answerWithinMs: SHELL_RENDER_KILL_MS, killAfterMs: SHELL_RENDER_KILL_MS })
        .then((answer): ShellEntry | undefined => {
          if (answer?.type === 'failed') options.log(`the shell worker could not render a page: ${answer.reason}`);
          if (answer?.type !== 'shell') return undefined;
          const entry: ShellEntry = { html: answer.html, fallbacks: answer.fallbacks, styles: answer.styles, overridden: answer.overridden, ids: idsIn(answer.html), key };
          if (caching) shells.set(key, entry, 2 * answer.html.length);
          return entry;
        })
        .finally(() => shellFlights.delete(key));
      flight = { started: performance.now(), promise };
      shellFlights.set(key, flight);
    }
    return Promise.race([flight.promise, delay(deadline - performance.now()).then(() => undefined)]);
  }

  // --- A section's HTML from its worker, checked.

  const sectionKey = (section: SectionId, build: string, site: Site, language: Language) => `${section} ${build} ${site.hash} ${language}`;
  const resultBytes = (result: SectionResult) => ('html' in result ? 2 * result.html.length : 256);

  async function renderSection(worker: SectionWorker, section: SectionId, build: string, site: Site, language: Language): Promise<SectionResult | undefined> {
    const answer = await worker.ask(
      { type: 'render', request: { build, config: site.config, problems: site.problems, language } },
      { answerWithinMs: SECTION_RENDER_KILL_MS, killAfterMs: SECTION_RENDER_KILL_MS },
    );
    if (answer === undefined) return undefined;
    if (answer.type === 'failed') return { failed: `it threw while rendering: ${String(answer.reason).slice(0, 300)}`, at: Date.now() };
    if (answer.type !== 'html') return { failed: 'its worker answered something else than HTML', at: Date.now() };
    const checked = checkSectionHtml(answer.html, { maxBytes: SSR_LIMITS.sectionHtmlBytes, reservedIds: new Set() });
    if (!checked.ok) return { failed: `its HTML was refused: ${checked.reason}`, at: Date.now() };
    return { html: answer.html, ids: idsIn(answer.html) };
  }

  const reported = new Set<string>();
  function report(line: string): void {
    if (reported.has(line)) return;
    if (reported.size > 200) reported.clear();
    reported.add(line);
    options.log(line);
  }

  /** The section's HTML for this page, or why it is left to the browser; waits no later than `deadline`. */
  async function sectionFor(
    section: SectionId,
    build: string,
    site: Site,
    language: Language,
    deadline: number,
    failure = `the ${section} section is rendered in the browser`,
  ): Promise<SectionResult | undefined> {
    const key = sectionKey(section, build, site, language);
    const cached = caching ? sectionResults.get(key) : undefined;
    if (cached && ('html' in cached || Date.now() - cached.at < FAILED_RENDER_MS)) return cached;
    const live = sections[section].worker;
    const worker = live && loaded.get(live)?.has(build) ? live : (previewWorkers.get(previewKey(section, build))?.worker ?? live);
    const refusal = worker ? loaded.get(worker)?.get(build) : undefined;
    if (!worker || !loaded.get(worker)?.has(build)) return undefined;
    if (refusal !== undefined) return { failed: refusal, at: Date.now() };
    let flight = sectionFlights.get(key);
    if (!flight) {
      const promise = renderSection(worker, section, build, site, language)
        .then((result) => {
          if (result && caching) sectionResults.set(key, result, resultBytes(result));
          if (result && 'failed' in result) {
            report(`${failure}: ${result.failed}`);
            signal(section, [build], 'render-failed', result.failed, site.config.remoteIntegrity?.[section]);
          }
          return result;
        })
        .finally(() => sectionFlights.delete(key));
      flight = { started: performance.now(), promise };
      sectionFlights.set(key, flight);
    }
    // A render already older than a page's budget is not waited for again: its worker is stuck or slow.
    if (performance.now() - flight.started > budgetMs) return undefined;
    return Promise.race([flight.promise, delay(deadline - performance.now()).then(() => undefined)]);
  }

  // --- One page.

  const pinChecks = new Map<string, boolean>();
  /** Whether a manifest's text matches config.json's pin for it (checked once per text and pin). */
  function matchesPin(text: string, hash: string, pin: string): boolean {
    const key = `${hash} ${pin}`;
    let ok = pinChecks.get(key);
    if (ok === undefined) {
      try {
        if (!isSri(pin)) throw new Error('not an integrity value');
        assertSri(Buffer.from(text, 'utf8'), pin, 'pin', 'the manifest');
        ok = true;
      } catch {
        ok = false;
      }
      if (pinChecks.size > 64) pinChecks.clear();
      pinChecks.set(key, ok);
    }
    return ok;
  }

  const SLOT = /<!--portico:(?:section:(home|about|contact)|section-styles|page-data)-->/g;

  async function compose(req: IncomingMessage, pathname: string, search: string): Promise<CachedPage | undefined> {
    const deadline = performance.now() + budgetMs;
    const host = options.hostOf(req);
    const origin = options.originOf(req);
    const [site, page] = await Promise.all([options.siteOf(req).then((context) => context.site, () => undefined), readTemplate()]);
    if (!site || origin === undefined || page === undefined) return undefined;
    if (site.config.preview) notePreview(site);
    else noteHost(host);
    watchRemotes(site.config);
    const language = languageFromSearch(search);

    // The configured sections' manifests as this server watches them: inlined for the browser, and the builds rendered here.
    const manifests: Partial<Record<SectionId, string>> = {};
    const hydration: Partial<Record<SectionId, Hydration>> = {};
    const stylesheets: ShellRequest['stylesheets'] = {};
    const sectionWork: Partial<Record<SectionId, Promise<SectionResult | undefined>>> = {};
    for (const id of SECTION_IDS) {
      const url = site.config.remotes[id];
      if (url === undefined) continue;
      const watched = watcher.current(url, id);
      if (watched.text === undefined || watched.hash === undefined) continue;
      const pin = site.config.remoteIntegrity?.[id];
      // A manifest its pin refuses is refused by the browser too: neither inlined nor rendered.
      if (pin !== undefined && !matchesPin(watched.text, watched.hash, pin)) continue;
      manifests[id] = watched.text;
      if (watched.read && 'manifest' in watched.read) {
        stylesheets[id] = sectionStyles.local(watched.read.manifest.url, sectionStylesheets(watched.read.manifest));
        hydration[id] = watched.read.manifest.hydration;
      }
      const entry = nodeEntryOf(watched);
      if (entry) sectionWork[id] = sectionFor(id, entry.integrity, site, language, deadline);
    }
    // The benchmark's static extras (staticExtras), rendered in Home's worker alongside it; only
    // into a static Home's panel, since an island that hydrates must find its own HTML alone.
    const extraWork =
      sectionWork.home && hydration.home?.mode === 'static'
        ? staticExtras.map((url) => {
            const entry = staticExtraEntry(url);
            return entry && sectionFor('home', entry.integrity, site, language, deadline, `the extra section ${url} is left out`);
          })
        : [];
    const shellKey = sha256(JSON.stringify([shellSupervisor.generation, page.stamp, site.hash, language, pathname, search, origin, Object.values(manifests).map(sha256)]));
    const shell = await shellFor(shellRequest(page, site, language, pathname, search, origin, stylesheets), shellKey, deadline);
    if (!shell) return undefined;

    const overridden = new Set(shell.overridden);
    const filled = new Map<SectionId, string>();
    const taken = new Set<string>();
    for (const id of SECTION_IDS) {
      if (overridden.has(id)) {
        delete manifests[id];
        delete hydration[id];
        continue;
      }
      const result = await sectionWork[id];
      if (!result || !('html' in result)) continue;
      // An id of the shell's, or of a section filled in before it: a label or a link would point into another part.
      const clash = [...result.ids].find((value) => shell.ids.has(value) || taken.has(value));
      if (clash !== undefined) {
        report(`the ${id} section is rendered in the browser: its HTML takes the id "${clash}", which the page around it uses`);
        continue;
      }
      for (const value of result.ids) taken.add(value);
      filled.set(id, result.html);
    }
    // After the sections: an extra never pushes one of them out; each is checked against all of them.
    if (filled.has('home')) {
      const extras = await Promise.all(extraWork);
      extras.forEach((extra, index) => {
        if (!extra || !('html' in extra)) return;
        const clash = [...extra.ids].find((value) => shell.ids.has(value) || taken.has(value));
        if (clash !== undefined) {
          report(`the extra section ${staticExtras[index]} is left out: its HTML takes the id "${clash}", which the page around it uses`);
          return;
        }
        for (const value of extra.ids) taken.add(value);
        filled.set('home', filled.get('home')! + extra.html);
      });
    }
    const rendered = SECTION_IDS.filter((id) => filled.has(id));

    const key = JSON.stringify([shell.key, rendered.map((id) => sha256(filled.get(id)!)), Object.keys(manifests)]);
    const cached = caching ? pages.get(key) : undefined;
    if (cached) return cached;
    const problems = site.problems.map(({ field, message }) => ({ field, message }));
    const { refused: refusedOverrides } = resolveRemotes(site.config.remotes, site.config.allowedRemoteOrigins, search);
    const data = pageDataScript({ config: site.raw, language, manifests, rendered, hydration, problems, refusedOverrides });
    const named = pageScriptIn(shell.html);
    const script = named ? await readPageScript(named) : undefined;
    // One pass over the shell: what is put in is never read again for slots.
    const composed = shell.html.replace(SLOT, (slot, section: SectionId | undefined) => {
      if (section) return filled.get(section) ?? shell.fallbacks[section];
      if (slot === STYLES_SLOT) return rendered.map((id) => shell.styles[id] ?? '').join('');
      if (slot === PAGE_DATA_SLOT) return data;
      return '';
    });
    // After the slots are filled: the script's code is never read for slots.
    const html = script ? withInlinePageScript(composed, script) : composed;
    const bytes = Buffer.from(html);
    const entry: CachedPage = { key, html: bytes, hash: sha256(html).slice(0, 27), bodies: new Map(), bytes: bytes.length, script: html === composed ? undefined : script };
    if (caching) pages.set(key, entry, entry.bytes);
    return entry;
  }

  function bodyOf(page: CachedPage, encoding: PageEncoding): Promise<Buffer> {
    let body = page.bodies.get(encoding);
    if (!body) {
      body = compressPage(page.html, encoding);
      page.bodies.set(encoding, body);
      // A failed compression is tried again by the next visitor, not remembered.
      body.then(
        (bytes) => {
          page.bytes += bytes.length;
          if (caching) pages.resize(page.key, page.bytes);
        },
        () => page.bodies.delete(encoding),
      );
    }
    return body;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, fallback: () => Promise<void>): Promise<void> {
    const target = requestTarget(req.url);
    if (!target || (target.pathname !== '/' && target.pathname !== '/index.html')) return fallback();
    const page = await compose(req, target.pathname, target.search);
    if (!page) return fallback();

    const policy = await options.pageHeaders(req, target.search);
    // The manifests are in the page: preloading them would fetch each twice.
    delete policy.Link;
    const headers = page.script ? allowingPageScript(policy, page.script) : policy;
    await answerPage(req, res, { hash: page.hash, bodyOf: (encoding) => bodyOf(page, encoding) }, headers);
  }

  async function start(hostHeaders: readonly string[]): Promise<void> {
    for (const host of hostHeaders) noteHost(host);
    const choice = await chooseSandbox({ ...options.sandbox, workerFile: sectionFile });
    if (choice.sandbox) {
      sandbox = choice.sandbox;
      options.log(`section code runs on the server in ${sandbox.description}`);
      if (choice.warning) options.log(`warning: ${choice.warning}`);
    } else {
      options.log(`sections are rendered in the browser only: ${choice.problem}`);
    }
    const stamp = await stat(shellFile).then(({ mtimeMs, size }) => `${mtimeMs}:${size}`);
    shellSupervisor.want({ key: stamp, prepare: prepareShell });
    await readConfigs();
    await watcher.poll();
    await replan();
    const warm = Promise.all([shellSupervisor.whenSettled(), ...SECTION_IDS.map((id) => sections[id].whenSettled())]);
    await Promise.race([warm, delay(SSR_LIMITS.firstWarmMs)]);
  }

  async function warm(next: (host: string | undefined) => Promise<SiteContext[]>, withinMs: number): Promise<void> {
    if (!sandbox || closed) return;
    const contexts = await Promise.all(knownHosts.map((host) => next(host).catch((): SiteContext[] => [])));
    upcoming = contexts.map((list) => list.flatMap((context) => (context.site ? [context.site] : [])));
    for (const site of upcoming.flat()) watchRemotes(site.config);
    const settled = (async () => {
      // A round under way may have started before these URLs were watched: then one more.
      await watcher.poll();
      if (upcoming.flat().some((site) => SECTION_IDS.some((id) => site.config.remotes[id] && watcher.current(site.config.remotes[id], id).text === undefined))) await watcher.poll();
      // Likewise a plan being made from the config before.
      await replan();
      await replan();
      await Promise.all([...SECTION_IDS.map((id) => sections[id].whenSettled()), ...[...previewWorkers.values()].map((supervisor) => supervisor.whenSettled())]);
    })();
    await Promise.race([settled, delay(withinMs)]);
    // Served from now on: the known hosts' own reading names these builds.
    upcoming = [];
  }

  async function checkRender(section: SectionId, build: NodeBuild): Promise<string[]> {
    if (!sandbox) return [`not run: section code does not run on this server${closed ? ' (closing)' : ''}`];
    const [site] = await currentSites();
    if (!site) return ['not run: config.json cannot be read, so there is nothing to render the section with'];
    const worker = new WorkerProcess<ToSectionWorker, FromSectionWorker>({
      name: `${section} publish check`,
      launch: sandbox.launch(heapMb),
      maxMessageBytes: SECTION_MESSAGE_BYTES,
      memoryLimitMb: SSR_LIMITS.workerMemoryMb,
      startMs: WORKER_START_MS,
      log: options.log,
    });
    try {
      if (!(await worker.ready)) return ['its worker did not start'];
      const answer = await worker.ask({ type: 'load', section, builds: [build] }, { answerWithinMs: SECTION_LOAD_KILL_MS, killAfterMs: SECTION_LOAD_KILL_MS });
      if (answer?.type !== 'loaded') return [`its node build was not evaluated within ${SECTION_LOAD_KILL_MS / 1000} s`];
      const refused = Array.isArray(answer.failed) ? answer.failed[0] : undefined;
      if (refused) return [`its node build failed to load: ${String(refused.reason).slice(0, 300)}`];
      const problems: string[] = [];
      for (const language of LANGUAGES) {
        const result = await renderSection(worker, section, build.key, site, language);
        if (result === undefined) problems.push(`rendering it in "${language}" took longer than ${SECTION_RENDER_KILL_MS / 1000} s`);
        else if ('failed' in result) problems.push(`rendering it in "${language}": ${result.failed}`);
        if (!worker.alive) break;
      }
      return problems;
    } finally {
      worker.kill('the publish check is done');
    }
  }

  function state(): RenderWorkerState {
    const of = (supervisor: Supervisor<SectionWorker>) => ({
      pid: supervisor.worker?.pid,
      generation: supervisor.generation,
      quarantined: supervisor.quarantinedNow,
      builds: supervisor.liveKey?.split(' ') ?? [],
      wanted: supervisor.planKey?.split(' ') ?? [],
    });
    return {
      pid: shellSupervisor.worker?.pid,
      generation: shellSupervisor.generation,
      sections: Object.fromEntries(SECTION_IDS.map((id) => [id, of(sections[id])])) as RenderWorkerState['sections'],
      sandbox: sandbox?.mode,
      cachedPages: pages.size,
      cacheBytes: pages.bytes + shells.bytes + sectionResults.bytes,
    };
  }

  return {
    handle,
    start,
    warm,
    checkRender,
    sectionStyles,
    worker: state,
    close: async () => {
      closed = true;
      clearInterval(timer);
      watcher.close();
      await Promise.all([shellSupervisor.close(), ...SECTION_IDS.map((id) => sections[id].close()), ...[...previewWorkers.values()].map((supervisor) => supervisor.close())]);
      sandbox?.close();
    },
  };
}
