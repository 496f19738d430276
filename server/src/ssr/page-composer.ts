import type { Hydration } from '@portico/contract/hydration';
import type { Language } from '@portico/contract/languages';
import type { SectionId } from '@portico/contract/sections';
import type { Site } from '../site-context';
import type { PageScriptCode } from './inline-page-script';
import type { PageEncoding } from './page-answer';
import { sectionsOverBudget, type PageCosts } from './page-budget';
import type { CachedPage, PageCache } from './page-cache';
import { composePage, pageKey, withoutSections, type Placement } from './page-composition';
import type { ShellEntry } from './shell-stage';
import { pageConfigOf, tabSections } from '@portico/shared-config/config';
import { pageSectionsOf } from '@portico/contract/page-data';

/** What a page is made of once its parts are in. */
export interface PageInputs {
  site: Site;
  language: Language;
  rendered: ShellEntry;
  /** Every part that arrived, each in its slot. */
  all: Placement;
  manifests: Partial<Record<SectionId, string>>;
  /** The hash of each manifest served (the inlined ones are the page's key). */
  manifestHashes: Partial<Record<SectionId, string>>;
  /** The manifests the site names, each with the version served (manifestTag). */
  sources: readonly string[];
  hydration: Partial<Record<SectionId, Hydration>>;
  script: PageScriptCode | undefined;
  encoding: PageEncoding;
  deadline: number;
}

/**
 * The manifests the browser may use: a static section the server rendered
 * never loads code in the page (its HTML is final), so its manifest stays
 * out of the page's bytes (issue 50: the first window).
 */
function browserManifests(
  manifests: Partial<Record<SectionId, string>>,
  hydration: Partial<Record<SectionId, Hydration>>,
  rendered: readonly SectionId[],
): Partial<Record<SectionId, string>> {
  return Object.fromEntries(Object.entries(manifests).filter(([id]) => !(hydration[id]?.mode === 'static' && rendered.includes(id))));
}

/**
 * A page not made yet, made now with what fits in what is left of the
 * budget: a section whose HTML would make the page's composition and
 * compression end past `deadline` is left to the browser (the largest
 * first), at the cost this server measured on its last pages.
 */
export class PageComposer {
  constructor(
    private readonly pages: PageCache,
    private readonly costs: PageCosts,
    private readonly budgetMs: number,
    private readonly report: (line: string) => void,
    /** Each section left out for the budget, counted (RenderCounts.sectionsPastBudget). */
    private readonly onPastBudget: (sections: number) => void = () => undefined,
  ) {}

  compose({ site, language, rendered, all, manifests, manifestHashes, sources, hydration, script, encoding, deadline }: PageInputs): CachedPage {
    const frame = rendered.html.length + Object.values(manifests).reduce((sum, text) => sum + (text?.length ?? 0), 0) + (script?.code.length ?? 0);
    const sizes = all.rendered.map((section) => ({ section, bytes: all.filled.get(section)!.length }));
    const over = sectionsOverBudget(frame, sizes, deadline - performance.now(), (bytes) => this.costs.estimate(bytes, encoding, this.pages.compressing));
    for (const section of over)
      this.report(
        `the ${section} section is rendered in the browser on some pages: with it, a page takes longer than its budget (${this.budgetMs} ms) to compose and compress now`,
      );
    if (over.size > 0) this.onPastBudget(over.size);
    const placement = over.size === 0 ? all : withoutSections(all, over);
    const inlined = browserManifests(manifests, hydration, placement.rendered);
    const key = pageKey(rendered, placement, inlined, manifestHashes);
    const made = this.pages.get(key);
    if (made) return made;
    const started = performance.now();
    const problems = site.problems.map(({ field, message }) => ({ field, message }));
    const data = {
      // What the server's parseConfig kept (the browser carries no parser:
      // issue 50), and of it the page's market's blocks only: the page never
      // shows the other's.
      config: pageConfigOf(site.config, language),
      language,
      sections: pageSectionsOf(tabSections(site.config, language), language),
      manifests: inlined,
      rendered: placement.rendered,
      hydration,
      problems,
      allowedRemoteOrigins: site.config.allowedRemoteOrigins,
    };
    const page = composePage({ shell: rendered, placement, data, script });
    const kept = this.pages.add(key, page.html, page.script, { manifests: sources, rendered: placement.rendered }, placement.formTexts);
    this.costs.note('compose', kept.bytes, performance.now() - started);
    return kept;
  }
}
