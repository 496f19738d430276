import { hydrationWithin, type Hydration } from '@portico/contract/hydration';
import type { Logger } from '@portico/platform/logging';
import { isSri, type NodeEntry } from '@portico/contract/manifest';
import type { SectionId } from '@portico/contract/sections';
import type { Language } from '@portico/contract/languages';
import { assertSri, fetchVerified } from '@portico/node-sections';
import type { NodeBuild, ShellRequest } from '@portico/node-sections/protocol';
import { pageSections, sectionGrant, servedSections, type SiteConfig } from '@portico/shared-config/config';
import type { Site } from '../site-context';
import { MANIFEST_CHURN, type ChurnBound } from './manifest-churn';
import { manifestTag } from './page-cache';
import { ManifestWatcher, type HeldManifest, type ManifestChange, type WatchedManifest } from './manifest-watcher';
import { SectionStyles, type LinkedStylesheet, type SectionStyleLimits } from './section-styles';
import { FAILED_FETCH_MS, MANIFEST_POLL_MS, MANIFEST_TIMEOUT_MS, SSR_LIMITS } from './render-limits';
import { LRUCache } from 'lru-cache';

/** A watched manifest the server has read, as a page may inline it. */
export type ReadManifest = WatchedManifest & { text: string; hash: string };

type Fetched = NodeBuild | { failed: string; at: number };

/** The node build a watched manifest names (read once, when it was fetched); undefined where it names none the server runs. */
function nodeEntryOf(watched: WatchedManifest): NodeEntry | undefined {
  const node = watched.read && 'manifest' in watched.read ? watched.read.manifest.nodeEntry : undefined;
  return node && 'url' in node ? node : undefined;
}

export interface SectionSourcesOptions {
  /** A manifest appeared, changed or went away, or a node build is to be fetched again: the plans may change. */
  onChange: () => void;
  /** A manifest appeared, changed or went away: what was made from the one before is not served again. */
  onManifestChange?: (change: ManifestChange) => void;
  /** How fast a manifest may change before it is held (MANIFEST_CHURN), for tests: a smaller bound. */
  churn?: Partial<ChurnBound>;
  log: Logger;
  /** The log, each line once for a while. */
  report: (line: string) => void;
  /** The stylesheets' limits, for measurements and tests (SECTION_STYLE_LIMITS otherwise). */
  styleLimits?: Partial<SectionStyleLimits>;
}

/**
 * What the sections are made from: the manifests the served configs name,
 * polled in the background (never on a visitor's request), held to
 * config.json's pins, and what they name for the server, fetched by this
 * server from each manifest's origin and checked against the manifest's
 * hashes, once per manifest: the node build and the stylesheets
 * (section-styles.ts).
 */
/** What the served config names for the page's sections, as this server watches it. */
export interface SectionInputs {
  /** Each manifest's text, inlined for the browser, and its hash, for the shell's key. */
  manifests: Partial<Record<SectionId, string>>;
  manifestHashes: Partial<Record<SectionId, string>>;
  hydration: Partial<Record<SectionId, Hydration>>;
  stylesheets: ShellRequest['stylesheets'];
  /** The node build each section is rendered from here. */
  builds: Partial<Record<SectionId, string>>;
  /** Every manifest the config names, with the version served (manifestTag), inlined or not: a new version of one changes the page. */
  sources: string[];
}

/** Pin checks kept: one per manifest text and pin served, a few more across changes. */
const PIN_CHECKS_KEPT = 64;

export class SectionSources {
  /** The stylesheets of the manifests planned, answered from the page's origin. */
  readonly styles: SectionStyles;
  private readonly watcher: ManifestWatcher;
  /** By the build's hash: shared by every URL that names the same build. */
  private readonly builds = new Map<string, Promise<Fetched>>();
  /** The builds being fetched: a section's plan may still be waiting for one while another section's plan ends. */
  private readonly fetching = new Set<string>();
  /** Whether a manifest's text matches its pin, by text and pin: a manifest changes rarely, so a few are enough (the least recently checked go first). */
  private readonly pinChecks = new LRUCache<string, boolean>({ max: PIN_CHECKS_KEPT });
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: SectionSourcesOptions) {
    this.styles = new SectionStyles(options.log, options.styleLimits);
    this.watcher = new ManifestWatcher({
      intervalMs: MANIFEST_POLL_MS,
      timeoutMs: MANIFEST_TIMEOUT_MS,
      maxBytes: SSR_LIMITS.manifestInlineBytes,
      churn: { ...MANIFEST_CHURN, ...options.churn },
      onChange: (change) => {
        options.onManifestChange?.(change);
        options.onChange();
      },
      log: options.log,
    });
  }

  /** Watches the manifests a config.json names, so the next poll fetches any that are new. */
  watchConfig(config: SiteConfig): void {
    for (const { id } of servedSections(config)) {
      const url = config.remotes[id];
      if (url !== undefined) this.watcher.current(url, id);
    }
  }

  /** What the last poll saw of `url`, watched from now on as `section`'s manifest. */
  watched(url: string, section: SectionId): WatchedManifest {
    return this.watcher.current(url, section);
  }

  /** The manifest `site` names for `section` as the last poll saw it, if read and if config.json's pin for it holds: what the page inlines, and renders from. */
  pinned(site: Site, section: SectionId): ReadManifest | undefined {
    const url = site.config.remotes[section];
    if (url === undefined) return undefined;
    const watched = this.watcher.current(url, section);
    if (watched.text === undefined || watched.hash === undefined) return undefined;
    const pin = site.config.remoteIntegrity?.[section];
    // A manifest its pin refuses is refused by the browser too: neither inlined nor rendered.
    if (pin !== undefined && !this.matchesPin(watched.text, watched.hash, pin)) return undefined;
    return watched as ReadManifest;
  }

  /** Whether a manifest `site` names has not been read yet. */
  unread(site: Site): boolean {
    return servedSections(site.config).some(({ id }) => {
      const url = site.config.remotes[id];
      return url !== undefined && this.watcher.current(url, id).text === undefined;
    });
  }

  /** The links of the stylesheets `manifest` names, once fetched and checked for its section to be rendered here; undefined until then, or when it is left to the browser. */
  stylesheets(manifest: ReadManifest): LinkedStylesheet[] | undefined {
    return manifest.read && 'manifest' in manifest.read ? this.styles.links(manifest.read.manifest, manifest.hash) : undefined;
  }

  /**
   * The node build the manifest at `url` names for `section`, fetched and
   * checked, with the section's stylesheets (the page links them);
   * undefined while there is none to run, or when its stylesheets
   * leave the section to the browser. `pin`: config.json's pin of the
   * manifest, which must hold. A build that could not be fetched is
   * reported and tried again after FAILED_FETCH_MS.
   */
  async build(url: string, section: SectionId, pin: string | undefined): Promise<NodeBuild | undefined> {
    const watched = this.watcher.current(url, section);
    const entry = nodeEntryOf(watched);
    if (!entry || watched.text === undefined || watched.hash === undefined || !watched.read || !('manifest' in watched.read)) return undefined;
    if (pin !== undefined && !this.matchesPin(watched.text, watched.hash, pin)) return undefined;
    const styled = this.styles.prepare(section, watched.read.manifest, watched.hash);
    let build = await this.fetch(entry);
    if ('failed' in build && Date.now() - build.at > FAILED_FETCH_MS) {
      this.builds.delete(entry.integrity);
      build = await this.fetch(entry);
    }
    if (!('failed' in build)) return (await styled) ? build : undefined;
    this.options.report(`the ${section} section's node build ${entry.url} is not rendered on the server: ${build.failed}`);
    if (!this.retry) {
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.options.onChange();
      }, FAILED_FETCH_MS);
      this.retry.unref();
    }
    return undefined;
  }

  /** At the end of a plan: the code of builds it does not name is not kept, nor the stylesheets of manifests it did not build from (after a while). */
  keepOnly(keys: ReadonlySet<string>): void {
    for (const key of this.builds.keys()) if (!keys.has(key) && !this.fetching.has(key)) this.builds.delete(key);
    this.styles.keepPrepared();
  }

  /** The manifests held at their last version because they change too fast. */
  held(): HeldManifest[] {
    return this.watcher.held();
  }

  /** One round over every watched manifest now. */
  poll(): Promise<void> {
    return this.watcher.poll();
  }

  close(): void {
    clearTimeout(this.retry);
    this.watcher.close();
    this.styles.close();
  }

  private fetch({ url, integrity }: NodeEntry): Promise<Fetched> {
    let build = this.builds.get(integrity);
    if (!build) {
      this.fetching.add(integrity);
      build = fetchVerified(url, integrity)
        .then(
          (bytes): NodeBuild => ({ key: integrity, url, code: bytes.toString('utf8') }),
          (error: unknown) => ({ failed: (error as Error).message, at: Date.now() }),
        )
        .finally(() => this.fetching.delete(integrity));
      this.builds.set(integrity, build);
    }
    return build;
  }

  /** Whether a manifest's text matches config.json's pin for it (checked once per text and pin). */
  private matchesPin(text: string, hash: string, pin: string): boolean {
    const key = `${hash} ${pin}`;
    let ok = this.pinChecks.get(key);
    if (ok === undefined) {
      try {
        if (!isSri(pin)) throw new Error('not an integrity value');
        assertSri(Buffer.from(text, 'utf8'), pin, 'pin', 'the manifest');
        ok = true;
      } catch {
        ok = false;
      }
      this.pinChecks.set(key, ok);
    }
    return ok;
  }

  /**
   * The manifests of the sections a page in `language` shows, as this server
   * watches them, in tab order: inlined for the browser, and the builds
   * rendered here. A hidden section, or one not shown in the page's market,
   * is not in the page at all.
   */
  inputsFor(site: Site, language: Language): SectionInputs {
    const inputs: SectionInputs = { manifests: {}, manifestHashes: {}, hydration: {}, stylesheets: {}, builds: {}, sources: [] };
    for (const { id } of pageSections(site.config, language)) {
      const url = site.config.remotes[id];
      if (url !== undefined) inputs.sources.push(manifestTag(url, this.watcher.current(url, id).hash));
      const watched = this.pinned(site, id);
      if (!watched) continue;
      inputs.manifests[id] = watched.text;
      inputs.manifestHashes[id] = watched.hash;
      // What the page follows is the build's declaration held to the integrator's grant: a section granted no script is static.
      if (watched.read && 'manifest' in watched.read) inputs.hydration[id] = hydrationWithin(watched.read.manifest.hydration, sectionGrant(site.config, id));
      const entry = nodeEntryOf(watched);
      // Rendered here only with its stylesheets kept (fetched once, when the plan first named the manifest); never fetched for a page.
      const stylesheets = entry && this.stylesheets(watched);
      if (!entry || !stylesheets) continue;
      inputs.builds[id] = entry.integrity;
      inputs.stylesheets[id] = stylesheets;
    }
    return inputs;
  }
}
