import type { Hydration } from '@portico/contract/hydration';
import type { Language } from '@portico/contract/languages';
import type { Manifest } from '@portico/contract/manifest';
import type { SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import type { Site } from '../site-context';
import type { SectionResult } from './section-stage';

/**
 * What a stage added to the pipeline may ask of it. The builds it names
 * are pinned by no config.json: only a program that embeds the server can
 * add a stage (`npm run serve` adds none), so no setting makes a production
 * server run code no operator pinned.
 */
export interface StageSources {
  /** The manifest at `url` as the last poll read it, watched from now on as `section`'s; undefined until read, or when it is no manifest. */
  manifest(url: string, section: SectionId): Manifest | undefined;
  /** The node build it names, fetched by this server from the manifest's origin and checked against the manifest's hash. */
  build(url: string, section: SectionId): Promise<NodeBuild | undefined>;
  /** The log, each line once for a while. */
  report(line: string): void;
}

/** One page as a stage sees it, once the sections rendered on the server are asked for. */
export interface StagePage {
  site: Site;
  language: Language;
  /** How each section hydrates, as its manifest says. */
  hydration: Partial<Record<SectionId, Hydration>>;
  /** The node build (its hash) each section is rendered from on this page, for those rendered on the server. */
  builds: Partial<Record<SectionId, string>>;
  /** The HTML `section`'s worker renders from `build` for this page, checked, within the page's budget; a failure is logged starting with `failure`. */
  render(section: SectionId, build: string, failure: string): Promise<SectionResult | undefined>;
}

/** More HTML for a section's slot, after the section's own: put in only when the section's own is, and only if it takes no id the page uses. */
export interface StagePart {
  section: SectionId;
  /** How the log names it when it is left out: `the extra section <url> is left out`. */
  failure: string;
  result: Promise<SectionResult | undefined>;
}

/**
 * A stage a program adds to the server-rendering pipeline
 * (ServerRenderingOptions.stages): builds run in a section's worker beside
 * the section's own, and their HTML put in that section's slot after its
 * own. The benchmark adds one (bench/static-sections-stage.ts).
 */
export interface RenderingStage {
  /** For the start-up log: what it adds. */
  description: string;
  /** Whenever the served configs' manifests are watched (each page, each poll): the manifests it watches. */
  watch(sources: StageSources): void;
  /** At each plan: the builds `section`'s worker runs beside the section's own (asked only while it has some). */
  plan(section: SectionId, sources: StageSources): Promise<NodeBuild[]>;
  /** Per page, started beside the sections' renders: the parts it adds. */
  parts(page: StagePage, sources: StageSources): StagePart[];
}
