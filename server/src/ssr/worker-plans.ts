import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import type { SiteConfig } from '@portico/shared-config/config';
import type { Site } from '../site-context';
import { MANIFEST_POLL_MS } from './render-limits';
import type { RenderingStage, StageSources } from './rendering-stage';
import type { ServedSites } from './served-sites';
import type { SectionSources } from './section-sources';
import type { ApartPlan, SectionStage } from './section-stage';

const configsOf = (sites: readonly Site[]) => sites.map((site) => site.hash).join(' ');

export interface WorkerPlannerOptions {
  sites: ServedSites;
  sources: SectionSources;
  sections: SectionStage;
  /** Stages a program added: their builds run beside a section's own. */
  stages: readonly RenderingStage[];
  stageSources: StageSources;
  /** Watches what a config.json names (and what the stages watch). */
  watch: (config: SiteConfig) => void;
  /** Whether workers are planned now: section code runs on this server. */
  active: () => boolean;
}

/**
 * The stage that plans the workers: which node builds each section's worker
 * runs (those the current config.json of the known hosts names for a
 * visitor outside every canary, read now, not the last request's: a build
 * the config no longer names is not loaded by the next generation, so a
 * rolled-back build never runs again), and a worker of its own for each
 * canary's candidate build and each previewed build. Planned again whenever
 * a manifest or the served configs change.
 */
export class WorkerPlanner {
  private replanning: Promise<void> | undefined;
  private again = false;
  /**
   * The configs the last plan was made from. A plan made while an
   * activation warms names the upcoming config too: compared with this, the
   * next reading plans again once that config is served or given up, even
   * if another activation came and went between two readings.
   */
  private plannedFrom = '';
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

  /** Plans again; a call while a plan is being made makes one more after it, not one each. */
  replan(): Promise<void> {
    if (this.replanning) {
      this.again = true;
      return this.replanning;
    }
    this.replanning = this.plan().finally(() => {
      this.replanning = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        void this.replan();
      }
    });
    return this.replanning;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  private async plan(): Promise<void> {
    if (this.closed || !this.options.active()) return;
    const { sites, sources, sections, stages, stageSources } = this.options;
    const { all: current, primary: firsts } = await sites.planned();
    this.plannedFrom = configsOf(current);
    // No host known yet: every config is everyone's.
    const primary = firsts.size > 0 ? firsts : new Set(current.map((site) => site.hash));
    const apart = new Map<string, ApartPlan>();
    for (const id of SECTION_IDS) {
      const wanted = new Map<string, NodeBuild>();
      const cohorts: [Site, NodeBuild][] = [];
      for (const site of current) {
        const build = await this.buildFor(site, id);
        if (build && primary.has(site.hash)) wanted.set(build.key, build);
        else if (build) cohorts.push([site, build]);
      }
      // A build only a canary's cohort gets runs in a worker of its own, warmed with the configs that name it.
      for (const [site, build] of cohorts) {
        if (wanted.has(build.key)) continue;
        const key = `${id} ${build.key}`;
        const known = apart.get(key);
        if (known) known.sites.push(site);
        else apart.set(key, { kind: 'canary worker', section: id, build, sites: [site] });
      }
      // A stage's builds run beside the section's own, in its worker.
      if (wanted.size > 0) {
        for (const stage of stages) for (const build of await stage.plan(id, stageSources)) wanted.set(build.key, build);
      }
      sections.want(id, [...wanted.values()]);
    }
    for (const site of [...sites.previews]) {
      const section = site.config.preview?.section;
      const build = section && (await this.buildFor(site, section));
      if (section && build) apart.set(`preview ${section} ${build.key} ${site.hash}`, { kind: 'preview worker', section, build, sites: [site] });
    }
    sections.wantApart([...apart.values()]);
    sources.keepOnly(sections.plannedBuilds());
  }

  /** The node build `site` names for `section`, held to its pin (which names it in the signals). */
  private async buildFor(site: Site, section: SectionId): Promise<NodeBuild | undefined> {
    const url = site.config.remotes[section];
    const pin = site.config.remoteIntegrity?.[section];
    const build = url === undefined ? undefined : await this.options.sources.build(url, section, pin);
    if (build) this.options.sections.notePin(section, build.key, pin);
    return build;
  }
}
