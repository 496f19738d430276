import type { IncomingMessage } from 'node:http';
import { answerConfig } from '@portico/config-server/config-answer';
import { previewTokenIn } from '@portico/contract/preview';
import type { ActiveReleases, ServedState } from '@portico/releases';
import { cohortOf } from '../cohorts';
import { configLogger } from '../config-log';
import { visitorOf } from '../request-origin';
import { hostPageHeaders, pageHeaders } from '../security-headers';
import { cohortVariants, releaseIds, releasesFor, withReleases } from '../served-releases';
import { oncePerRequest, siteContext, type SiteContext } from '../site-context';
import { requestTarget } from '../static-files';
import { servedNow, type ServingState } from './serving-state';

/**
 * Logs each distinct line once: the page's headers are computed per request,
 * and a config.json fault would otherwise fill the log at every page load.
 */
function onceEach(log: ((line: string) => void) | undefined): (line: string) => void {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    // Bounded, for a config.json that keeps changing.
    if (seen.size >= 500) seen.clear();
    seen.add(line);
    log?.(line);
  };
}

/**
 * The site a request to the host's port is served: config.json read and
 * parsed once per request (site-context.ts) with the releases of the
 * visitor's cohort or preview in it, the page's headers made from it, and
 * the cohort's cookie and Vary while a canary runs. The page, config.json,
 * the theme and the 404 page all ask it, and get the same answer.
 */
export class HostSite {
  /** config.json for one request, once per request. */
  readonly siteOf: (req: IncomingMessage) => Promise<SiteContext>;
  /**
   * The default config.json names remotes on the host the visitor used, so
   * it and the host page's policy differ per Host: caches must know.
   */
  readonly varyByHost: string | undefined;
  private readonly logHeaderNote: (line: string) => void;
  private readonly logConfig: ReturnType<typeof configLogger>;

  constructor(private readonly state: ServingState) {
    this.logHeaderNote = onceEach(state.log);
    this.logConfig = configLogger(state.log);
    this.varyByHost = state.configPath ? undefined : state.trustProxy ? 'Host, X-Forwarded-Host' : 'Host';
    this.siteOf = oncePerRequest((req) =>
      this.siteWith(this.hostOf(req), releasesFor(this.served(), this.cohortOf(req).bucket), previewTokenIn(requestTarget(req.url)?.search ?? '')),
    );
  }

  served(): ServedState {
    return servedNow(this.state);
  }

  hostOf(req: IncomingMessage): string | undefined {
    return visitorOf(req, { trustProxy: this.state.trustProxy }).host;
  }

  originOf(req: IncomingMessage): string | undefined {
    return visitorOf(req, { trustProxy: this.state.trustProxy }).origin;
  }

  cohortOf(req: IncomingMessage) {
    const https = visitorOf(req, { trustProxy: this.state.trustProxy }).protocol === 'https';
    return cohortOf(req, this.served(), https);
  }

  /** config.json as a visitor to `host` gets it with `releases` (and a preview link's release) in it; its report logged the first time its content is seen. */
  async siteWith(host: string | undefined, releases: ActiveReleases, previewToken?: string): Promise<SiteContext> {
    const { state } = this;
    const answer = await answerConfig({ configPath: state.configPath, hostHeader: host, basePort: state.basePort, ports: state.ports });
    const preview = previewToken === undefined || !state.openPreview ? undefined : await state.openPreview(previewToken);
    const ids = releaseIds(releases);
    const token = Object.keys(ids).length > 0 ? state.healthToken?.(ids) : undefined;
    const context = siteContext(withReleases(answer, releases, preview, token === undefined ? undefined : { releases: ids, token }));
    // The operator's mistakes are the operator's: in this log, never on the page.
    if (context.site) this.logConfig(answer.body, context.site);
    return context;
  }

  /** Every config.json a visitor to `host` may get under `state`: one per cohort's releases. */
  variantsFor(host: string | undefined, state: ServedState): Promise<SiteContext[]> {
    return Promise.all(cohortVariants(state).map((releases) => this.siteWith(host, releases)));
  }

  /** The cookie to set and the Vary to send while a canary runs: cohorts are per visitor. */
  cohortHeaders(req: IncomingMessage): Record<string, string> {
    if (Object.keys(this.served().canaries).length === 0) return {};
    const { setCookie } = this.cohortOf(req);
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
  async pageHeaders(req: IncomingMessage, search: string): Promise<Record<string, string>> {
    const { site } = await this.siteOf(req);
    const headers = site ? hostPageHeaders(site, search, this.logHeaderNote) : pageHeaders([]);
    const vary = this.varyCookie(this.varyByHost);
    return { ...headers, ...this.cohortHeaders(req), ...(vary ? { Vary: vary } : {}) };
  }

  /**
   * A page answer (the server-rendered page, its 304, or the client-rendered
   * index.html) counts for the releases its visitor is served: the beacon
   * issues no more visit ids for them than pages. A preview visit reports
   * nothing, and a HEAD is no page.
   */
  countPage(req: IncomingMessage, search: string): void {
    if (!this.state.pageServed || req.method !== 'GET' || previewTokenIn(search) !== undefined) return;
    const ids = releaseIds(releasesFor(this.served(), this.cohortOf(req).bucket));
    if (Object.keys(ids).length > 0) this.state.pageServed(ids);
  }
}
