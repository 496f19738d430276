import type { Site, SiteContext } from '../site-context';
import { PREVIEW_SITES, WARM_HOSTS } from './render-limits';

/**
 * Each config.json a visitor to `host` may get: one, or one per cohort's
 * releases while a canary runs, the first being what a visitor outside every
 * canary gets (its builds run in the sections' own workers, a candidate's in
 * workers of their own).
 */
export type SitesForHost = (host: string | undefined) => Promise<SiteContext[]>;

const servable = (contexts: SiteContext[]) => contexts.flatMap((context) => (context.site ? [context.site] : []));

/**
 * The first stage: which config.json files are served, so the workers run
 * their builds before a visitor asks. Visitors name them: the hosts they
 * came by (the default config.json names remotes on the visitor's host),
 * the preview links they opened; and an activation about to be served
 * names the upcoming ones for a while (`expect`).
 */
export class ServedSites {
  /** Host names visitors came by, latest last. */
  private readonly hosts: string[] = [];
  /** Preview visits' configs (config.preview set), latest last, at most PREVIEW_SITES per section. */
  private readonly previewed: Site[] = [];
  /** Per known host, the configs about to be served (the first: outside every canary). */
  private upcoming: Site[][] = [];

  /** `onPreview`: a preview not kept warm before was opened. */
  constructor(
    private readonly sitesForHost: SitesForHost,
    private readonly onPreview: () => void,
  ) {}

  /** The previewed configs kept warm, least recently opened first. */
  get previews(): readonly Site[] {
    return this.previewed;
  }

  /** A visit served `site` to `host`. */
  noteVisit(site: Site, host: string | undefined): void {
    if (site.config.preview) this.notePreview(site);
    else this.noteHost(host);
  }

  noteHost(host: string | undefined): void {
    const { hosts } = this;
    if (host === undefined || hosts.at(-1) === host) return;
    const at = hosts.indexOf(host);
    if (at !== -1) hosts.splice(at, 1);
    hosts.push(host);
    if (hosts.length > WARM_HOSTS) hosts.shift();
  }

  /** The sites a new worker warms up with: the current config.json of each known host, read now, and the upcoming ones. */
  async current(): Promise<Site[]> {
    return (await this.planned()).all;
  }

  /**
   * The same, and the hashes of each host's first config (what a visitor
   * outside every canary gets): the builds the sections' own workers run.
   */
  async planned(): Promise<{ all: Site[]; primary: ReadonlySet<string> }> {
    const lists = [...(await this.readFor(this.sitesForHost)), ...this.upcoming];
    const byHash = new Map(lists.flat().map((site) => [site.hash, site]));
    return { all: [...byHash.values()], primary: new Set(lists.flatMap((sites) => (sites[0] ? [sites[0].hash] : []))) };
  }

  /** The configs `read` gives for each known host (a host whose config cannot be read gives none). */
  async readFor(read: SitesForHost): Promise<Site[][]> {
    const contexts = await Promise.all(this.hosts.map((host) => read(host).catch((): SiteContext[] => [])));
    return contexts.map(servable);
  }

  /** The configs about to be served, per host, in every plan until `expect([])`: their builds run before their first visitor. */
  expect(upcoming: Site[][]): void {
    this.upcoming = upcoming;
  }

  private notePreview(site: Site): void {
    const { previewed } = this;
    const section = site.config.preview?.section;
    if (!section) return;
    const at = previewed.findIndex((other) => other.hash === site.hash);
    if (at !== -1) {
      if (at === previewed.length - 1) return;
      previewed.splice(at, 1);
    }
    previewed.push(site);
    const ofSection = previewed.filter((other) => other.config.preview?.section === section);
    if (ofSection.length > PREVIEW_SITES) previewed.splice(previewed.indexOf(ofSection[0]!), 1);
    this.onPreview();
  }
}
