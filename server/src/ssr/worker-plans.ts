import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import type { SiteConfig } from '@portico/shared-config/config';
import type { Site } from '../site-context';
import { MANIFEST_POLL_MS } from './render-limits';
import type { RenderingStage, StageSources } from './rendering-stage';
import type { ServedSites } from './served-sites';
import type { SectionSources } from './section-sources';
import type { PreviewPlan, SectionStage } from './section-stage';

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
 * runs (those the current config.json of the known hosts names, read now,
 * not the last request's: a build the config no longer names is not loaded
 * by the next generation, so a rolled-back build never runs again), and a
 * worker of its own for each previewed build. Planned again whenever a
 * manifest or the served configs change.
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
    const current = await sites.current();
    this.plannedFrom = configsOf(current);
    for (const id of SECTION_IDS) {
      const wanted = new Map<string, NodeBuild>();
      for (const site of current) {
        const build = await this.buildFor(site, id);
        if (build) wanted.set(build.key, build);
      }
      // A stage's builds run beside the section's own, in its worker.
      if (wanted.size > 0) {
        for (const stage of stages) for (const build of await stage.plan(id, stageSources)) wanted.set(build.key, build);
      }
      sections.want(id, [...wanted.values()]);
    }
    const previews: PreviewPlan[] = [];
    for (const site of [...sites.previews]) {
      const section = site.config.preview?.section;
      const build = section && (await this.buildFor(site, section));
      if (section && build) previews.push({ section, build, site });
    }
    sections.wantPreviews(previews);
    sources.keepOnly(sections.plannedBuilds());
  }

  /** The node build `site` names for `section`, held to its pin. */
  private buildFor(site: Site, section: SectionId): Promise<NodeBuild | undefined> {
    const url = site.config.remotes[section];
    return url === undefined ? Promise.resolve(undefined) : this.options.sources.build(url, section, site.config.remoteIntegrity?.[section]);
  }
}
