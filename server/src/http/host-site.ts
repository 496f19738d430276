import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConfigAnswer } from '@portico/config-server/config-answer';
import type { HealthNote } from '@portico/contract/beacon';
import { ConfigFile } from '@portico/config-server/config-file';
import { previewTokenIn } from '@portico/contract/preview';
import type { ActiveReleases, ServedState } from '@portico/releases';
import { LRUCache } from 'lru-cache';
import { cohortOf, type Cohort } from '../cohorts';
import { configLogger } from '../config-log';
import { onceEach } from '../first-sight';
import { isSecureContext } from '@portico/platform/http';
import { hostPageHeaders, pageHeaders } from '../security-headers';
import { catalogueKey, cohortVariants, releaseIds, releaseKey, releasesFor, withReleases, type SectionCatalogue } from '../served-releases';
import { siteContext, type Site, type SiteContext } from '../site-context';
import { requestTarget } from '../static-files';
import { servedNow, type ServingState } from './serving-state';

/** Contexts kept per version of config.json: one per cohort's releases, a few more across activations (the releases and tokens no longer served are the least recently used). */
const CONTEXTS_KEPT = 16;
/** Page headers kept per site: one per query a visitor used (most pages are `/` and `/?type=2`); visitors choose the query, so bounded. */
const HEADERS_KEPT = 256;
/** Header notes logged once each: bounded, for a config.json that keeps changing. */
const NOTES_KEPT = 500;

/** Each request's site, once asked for: a slot every request of the host's port has (HostSite.decorate). */
const SITE = Symbol('site');
/** Its cohort, drawn once (a bucket drawn twice could differ): a slot too, not a map keyed by request. */
const COHORT = Symbol('cohort');
type WithSiteSlot = FastifyRequest & { [SITE]: Promise<SiteContext> | null; [COHORT]: Cohort | null };

/**
 * The site a request to the host's port is served: config.json read and
 * parsed once per version of the file (ConfigFile, site-context.ts) with the releases of the
 * visitor's cohort or preview in it, the page's headers made from it, and
 * the cohort's cookie and Vary while a canary runs. The page, config.json,
 * the theme and the 404 page all ask it, and get the same answer.
 */
export class HostSite {
  /**
   * The default config.json names remotes on the host the visitor used, so
   * it and the host page's policy differ per Host: caches must know.
   */
  readonly varyByHost: string | undefined;
  private readonly logHeaderNote: (line: string) => void;
  private readonly logConfig: ReturnType<typeof configLogger>;
  private readonly file: ConfigFile;
  /**
   * What is made of one version of config.json, kept with it: the context
   * per releases served (and their visit-report token), so a request costs
   * a lookup, not a parse, a validation and a hash.
   */
  private readonly contexts = new WeakMap<ConfigAnswer, LRUCache<string, SiteContext>>();
  /** The page's headers per site and address (its query may override a section): made once each. */
  private readonly headers = new WeakMap<Site, LRUCache<string, Record<string, string>>>();
  /**
   * Each cohort's releases per served state (which is replaced, never
   * changed): one object per set, so what is made of a set below is kept by
   * identity instead of made again at every request.
   */
  private readonly cohortReleases = new WeakMap<ServedState, Map<number | undefined, ActiveReleases>>();
  /** What a request needs of one set of releases (its ids for the visit report, its key), per set. */
  private readonly setFacts = new WeakMap<ActiveReleases, { canaries: ServedState['canaries'] | undefined; ids: HealthNote['releases']; key: string }>();
  /** Those headers with their Vary (Cookie while a canary runs), per Vary. */
  private readonly varied = new WeakMap<Record<string, string>, Map<string | undefined, Record<string, string>>>();

  constructor(private readonly state: ServingState) {
    // The page's headers are computed per request: a config.json fault would otherwise fill the log at every page load.
    this.logHeaderNote = onceEach((line) => state.log.warn(line), NOTES_KEPT);
    this.logConfig = configLogger((line) => state.log.warn(line));
    this.file = new ConfigFile({ configPath: state.configPath, basePort: state.basePort, ports: () => state.ports, watched: true });
    this.varyByHost = state.configPath ? undefined : state.trustProxy ? 'Host, X-Forwarded-Host' : 'Host';
  }

  /** Gives every request of `app` the slots siteOf and cohortOf keep their answers in (one shape for every request, as Fastify wants). */
  static decorate(app: FastifyInstance): void {
    app.decorateRequest(SITE, null);
    app.decorateRequest(COHORT, null);
  }

  /** config.json for one request, read once per request: the page, its headers and /config.json share it. */
  siteOf(request: FastifyRequest): Promise<SiteContext> {
    const slot = request as WithSiteSlot;
    return (slot[SITE] ??= this.siteWith(
      request.visitor.host,
      this.releasesOf(this.served(), this.cohortOf(request).bucket),
      previewTokenIn(requestTarget(request.raw.url)?.search ?? ''),
      this.served(),
    ));
  }

  /** releasesFor, made once per served state and bucket. */
  private releasesOf(served: ServedState, bucket: number | undefined): ActiveReleases {
    let byBucket = this.cohortReleases.get(served);
    if (!byBucket) this.cohortReleases.set(served, (byBucket = new Map()));
    let releases = byBucket.get(bucket);
    if (!releases) byBucket.set(bucket, (releases = releasesFor(served, bucket)));
    return releases;
  }

  /** A set's ids and key, made once per set (and canaries beside it). */
  private factsOf(releases: ActiveReleases, canaries: ServedState['canaries'] | undefined) {
    const known = this.setFacts.get(releases);
    if (known && known.canaries === canaries) return known;
    const facts = { canaries, ids: releaseIds(releases, canaries), key: releaseKey(releases) };
    this.setFacts.set(releases, facts);
    return facts;
  }

  served(): ServedState {
    return servedNow(this.state);
  }

  /** The request's cohort (cohorts.ts), drawn at its first use and kept on the request. */
  cohortOf(request: FastifyRequest): Cohort {
    const slot = request as WithSiteSlot;
    return (slot[COHORT] ??= cohortOf(request.raw, this.served(), request.visitor.protocol === 'https'));
  }

  /** config.json as a visitor to `host` gets it with `releases` (and a preview link's release) in it; its report logged the first time its content is seen. */
  async siteWith(
    host: string | undefined,
    releases: ActiveReleases,
    previewToken?: string,
    catalogue: SectionCatalogue & Partial<Pick<ServedState, 'canaries'>> = {},
  ): Promise<SiteContext> {
    const { state } = this;
    const answer = await this.file.answer(host);
    const preview = previewToken === undefined || !state.openPreview ? undefined : await state.openPreview(previewToken);
    const facts = this.factsOf(releases, catalogue.canaries);
    const { ids } = facts;
    const token = Object.keys(ids).length > 0 ? state.healthToken?.(ids) : undefined;
    // A preview visit's context is its own (its release, until when); every other is kept with the file's version.
    const key = preview === undefined ? `${facts.key} ${catalogueKey(catalogue)} ${token ?? ''}` : undefined;
    let kept = this.contexts.get(answer);
    const known = key === undefined ? undefined : kept?.get(key);
    if (known) return known;
    const context = siteContext(withReleases(answer, releases, preview, token === undefined ? undefined : { releases: ids, token }, catalogue));
    // The operator's mistakes are the operator's: in this log, never on the page.
    if (context.site) this.logConfig(answer.body, context.site);
    if (key !== undefined) {
      if (!kept) this.contexts.set(answer, (kept = new LRUCache({ max: CONTEXTS_KEPT })));
      kept.set(key, context);
    }
    return context;
  }

  /** Every config.json a visitor to `host` may get under `state`: one per cohort's releases. */
  variantsFor(host: string | undefined, state: ServedState): Promise<SiteContext[]> {
    return Promise.all(cohortVariants(state).map((releases) => this.siteWith(host, releases, undefined, state)));
  }

  /** The cookie to set and the Vary to send while a canary runs: cohorts are per visitor. */
  cohortHeaders(request: FastifyRequest): Record<string, string> {
    if (Object.keys(this.served().canaries).length === 0) return {};
    const { setCookie } = this.cohortOf(request);
    return setCookie ? { 'Set-Cookie': setCookie } : {};
  }

  /** `vary` with Cookie added while a canary runs. */
  varyCookie(vary: string | undefined): string | undefined {
    return Object.keys(this.served().canaries).length === 0 ? vary : [vary, 'Cookie'].filter(Boolean).join(', ');
  }

  /**
   * The host page's headers: its policy names the remotes of the very
   * config.json it will be given.
   */
  async pageHeaders(request: FastifyRequest, search: string): Promise<Record<string, string>> {
    const { site } = await this.siteOf(request);
    const headers = site ? this.hostPageHeaders(site, search) : pageHeaders([]);
    const vary = this.varyCookie(this.varyByHost);
    const cohort = this.cohortHeaders(request);
    if (cohort['Set-Cookie'] !== undefined) return { ...headers, ...cohort, ...(vary ? { Vary: vary } : {}) };
    // Without a cookie to set, the same object for every request (nobody changes it): what is made from it can be kept by identity.
    let withVary = this.varied.get(headers);
    if (!withVary) this.varied.set(headers, (withVary = new Map()));
    let answer = withVary.get(vary);
    if (!answer) withVary.set(vary, (answer = { ...headers, ...(vary ? { Vary: vary } : {}) }));
    return answer;
  }

  /** hostPageHeaders, once per site and query. */
  private hostPageHeaders(site: Site, search: string): Record<string, string> {
    let kept = this.headers.get(site);
    if (!kept) this.headers.set(site, (kept = new LRUCache({ max: HEADERS_KEPT })));
    let headers = kept.get(search);
    if (!headers) {
      headers = hostPageHeaders(site, search, this.logHeaderNote);
      kept.set(search, headers);
    }
    return headers;
  }

  /**
   * A page answer (the server-rendered page, its 304, or the client-rendered
   * index.html) counts for the releases its visitor is served: the beacon
   * issues no more visit ids for them than pages. A preview visit reports
   * nothing, and a HEAD is no page. The visit id to send with the page
   * (VISIT_TIMING), where the page can read it (a secure context); nothing
   * to wait for when no page of releases was counted (the page then goes
   * out as fast as before).
   */
  countPage(request: FastifyRequest, search: string): Promise<string | undefined> | undefined {
    if (!this.state.pageServed || request.method !== 'GET' || previewTokenIn(search) !== undefined) return undefined;
    const served = this.served();
    const { ids } = this.factsOf(this.releasesOf(served, this.cohortOf(request).bucket), served.canaries);
    if (Object.keys(ids).length === 0) return undefined;
    return this.state.pageServed(ids, { served, withVisit: isSecureContext(request.visitor) });
  }
}
