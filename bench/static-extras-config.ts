import { MAX_SHOWN_SECTIONS } from '@portico/contract/section-entries';
import { SECTION_IDS } from '@portico/contract/sections';
import { extraSectionId } from './extra-remotes/extra-ids';

/**
 * How many extra static sections the "fed SSR + N static" column adds: as
 * many as asked, up to what the nav holds beside the built-in three (5 of
 * MAX_SHOWN_SECTIONS' 8): a page the product can serve.
 */
export function staticExtrasCount(asked: number): number {
  return Math.min(asked, MAX_SHOWN_SECTIONS - SECTION_IDS.length);
}

/**
 * An operator's config.json with the extra remotes added as sections, as
 * any deployment adds one (docs/configuration.md, "Sections config.json
 * adds"): each listed in `sections` with its labels, after the built-in
 * ones, its manifest in `remotes`. They declare themselves static, so the
 * server renders them and the browser is sent none of their code.
 */
export function withStaticExtras<T extends { remotes: Record<string, string>; sections?: Record<string, unknown> }>(
  config: T,
  manifests: readonly string[],
): T {
  const ids = manifests.map((_, index) => extraSectionId(index));
  return {
    ...config,
    remotes: { ...config.remotes, ...Object.fromEntries(ids.map((id, index) => [id, manifests[index]!])) },
    sections: {
      ...config.sections,
      ...Object.fromEntries(ids.map((id, index) => [id, { labels: { en: `Extra ${index + 1}`, id: `Tambahan ${index + 1}` } }])),
    },
  };
}
