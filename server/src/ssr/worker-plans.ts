import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import { servedSections, type SiteConfig } from '@portico/shared-config/config';
import type { Site } from '../site-context';
import { MANIFEST_POLL_MS } from './render-limits';
import type { ServedSites } from './served-sites';
import type { SectionSources } from './section-sources';
import type { ApartPlan, SectionStage } from './section-stage';

const configsOf = (sites: readonly Site[]) => sites.map((site) => site.hash).join(' ');

export interface WorkerPlannerOptions {
  sites: ServedSites;
  sources: SectionSources;
  sections: SectionStage;
  /** Watches what a config.json names. */
  watch: (config: SiteConfig) => void;
  /** Whether workers are planned now: section code runs on this server. */
  active: () => boolean;
}

/** The configs a plan is made from: every one served, and which a visitor outside every canary gets. */
interface Planned {
  current: Site[];
  primary: ReadonlySet<string>;
}

/**
 * The stage that plans the workers: which node builds each section's worker
 * runs (those the current config.json of the known hosts names for a
 * visitor outside every canary, read now, not the last request's: a build
 * the config no longer names is not loaded by the next generation, so a
 * rolled-back build never runs again), and a worker of its own for each
 * canary's candidate build and each previewed build. Planned again whenever
 * a manifest or the served configs change. Each section is planned on its
 * own: one whose build or stylesheets are slow to fetch delays no other
 * section's worker.
 */
export class WorkerPlanner {
  /**
   * The configs the last plan was made from. A plan made while an
   * activation warms names the upcoming config too: compared with this, the
   * next reading plans again once that config is served or given up, even
   * if another activation came and went between two readings.
   */
  private plannedFrom = '';
  /** The configs the latest plan read, which each section's plan is made from. */
  private latest: Planned = { current: [], primary: new Set() };
  /** Each section's plan under way; asked again meanwhile, it is made once more after (`again`), not once per ask. */
  private readonly flights = new Map<SectionId, Promise<void>>();
  private readonly again = new Set<SectionId>();
  /** Per section, the builds its last plan runs in workers of their own (canaries' candidates, previews). */
  private readonly apart = new Map<SectionId, ApartPlan[]>();
  /** The sections ever planned: the built-in ones from the start, an added one from the first config that serves it. */
  private readonly planned = new Set<SectionId>(SECTION_IDS);
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: WorkerPlannerOptions) {
    this.timer = setInterval(() => void this.readConfigs(), MANIFEST_POLL_MS);
    this.timer.unref();
  }

  /** Each round: the current config.json of the known hosts names what is watched, so a change is seen without a visitor; resolves once planned. */
  async readConfigs(): Promise<void> {
    const sites = await this.options.sites.current();
    for (const site of sites) this.options.watch(site.config);
    // An edit that names the same manifests changes no plan; one that names others does, at once if they are known.
    if (this.options.active() && configsOf(sites) !== this.plannedFrom) await this.replan();
  }

  /** Plans each section again from the configs served now; resolves once every section's plan is made (a section's plan under way is made once more after it). */
  async replan(): Promise<void> {
    if (this.closed || !this.options.active()) return;
    const { all, primary: firsts } = await this.options.sites.planned();
    this.plannedFrom = configsOf(all);
    // No host known yet: every config is everyone's.
    this.latest = { current: all, primary: firsts.size > 0 ? firsts : new Set(all.map((site) => site.hash)) };
    // Every section a config serves now, and every one planned before (a section hidden or retired since gets an empty plan: its worker stops).
    for (const site of [...all, ...this.options.sites.previews]) for (const { id } of servedSections(site.config)) this.planned.add(id);
    await Promise.all([...this.planned].map((id) => this.planSection(id)));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** `section`'s plan, made now, or once more after the one under way. */
  private planSection(section: SectionId): Promise<void> {
    const flying = this.flights.get(section);
    if (flying) {
      this.again.add(section);
      return flying;
    }
    const flight = (async () => {
      do {
        this.again.delete(section);
        await this.plan(section, this.latest);
      } while (this.again.has(section) && !this.closed);
    })().finally(() => {
      this.flights.delete(section);
      // Only once no section waits for a build: the code and stylesheets a plan under way may still name are kept.
      if (this.flights.size === 0 && !this.closed) this.options.sources.keepOnly(this.options.sections.plannedBuilds());
    });
    this.flights.set(section, flight);
    return flight;
  }

  private async plan(id: SectionId, { current, primary }: Planned): Promise<void> {
    if (this.closed || !this.options.active()) return;
    const { sites, sections } = this.options;
    const wanted = new Map<string, NodeBuild>();
    const cohorts: [Site, NodeBuild][] = [];
    for (const site of current) {
      const build = await this.buildFor(site, id);
      if (build && primary.has(site.hash)) wanted.set(build.key, build);
      else if (build) cohorts.push([site, build]);
    }
    // A build only a canary's cohort gets runs in a worker of its own, warmed with the configs that name it.
    const apart = new Map<string, ApartPlan>();
    for (const [site, build] of cohorts) {
      if (wanted.has(build.key)) continue;
      const known = apart.get(build.key);
      if (known) known.sites.push(site);
      else apart.set(build.key, { kind: 'canary worker', section: id, build, sites: [site] });
    }
    const previews: ApartPlan[] = [];
    for (const site of [...sites.previews]) {
      const build = site.config.preview?.section === id ? await this.buildFor(site, id) : undefined;
      if (build) previews.push({ kind: 'preview worker', section: id, build, sites: [site] });
    }
    if (this.closed) return;
    sections.want(id, [...wanted.values()]);
    this.apart.set(id, [...apart.values(), ...previews]);
    sections.wantApart([...this.apart.values()].flat());
  }

  /** The node build `site` names for `section`, held to its pin (which names it in the signals). */
  private async buildFor(site: Site, section: SectionId): Promise<NodeBuild | undefined> {
    // A hidden section, or one no longer listed, runs nowhere: its manifest is not even fetched.
    const url = servedSections(site.config).some(({ id }) => id === section) ? site.config.remotes[section] : undefined;
    const pin = site.config.remoteIntegrity?.[section];
    const build = url === undefined ? undefined : await this.options.sources.build(url, section, pin);
    if (build) this.options.sections.notePin(section, build.key, pin);
    return build;
  }
}
