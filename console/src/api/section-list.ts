import { BUILT_IN_SECTIONS, type SectionEntry } from '@portico/contract/section-entries';
import { MARKETS, type Language } from '@portico/contract/languages';
import { type AnswerOf, DEFAULT_RELEASE_POLICY, type CONTROL_API, type ReleasePolicy } from '@portico/control-contract';

type SectionsAnswer = AnswerOf<typeof CONTROL_API.sections.status>;

/** A section as the console lists it: its entry (labels, origins, markets, hidden) and its place in the nav. */
export interface ListedSection extends Omit<SectionEntry, 'id'> {
  id: string;
  /** Its place in the nav, 0 first. */
  order: number;
  /** How far its own token may take a release alone (the integrator's). */
  policy: ReleasePolicy;
}

/**
 * The sections `GET /api/sections` answers, retired ones aside, in nav
 * order. A field the answer leaves out (a server from before sections as
 * data) is the built-in default's, so the three built-in sections read as
 * they always did; an added section the answer names without labels shows
 * its id.
 */
export function listedSections(answer: SectionsAnswer): ListedSection[] {
  // A retired section stays in the answer for its history; it is in no list.
  const live = Object.entries(answer).filter(([, shown]) => shown?.retired === undefined);
  const listed = live.map(([id, shown], index): ListedSection => {
    const builtIn = BUILT_IN_SECTIONS.find((entry) => entry.id === id);
    return {
      id,
      labels: shown?.labels ?? builtIn?.labels ?? { en: id, id },
      origins: shown?.origins ?? builtIn?.origins ?? [],
      interactive: shown?.interactive ?? builtIn?.interactive ?? false,
      markets: shown?.markets ?? builtIn?.markets ?? [...MARKETS],
      hidden: shown?.hidden ?? false,
      builtIn: shown?.builtIn ?? builtIn !== undefined,
      policy: shown?.policy ?? DEFAULT_RELEASE_POLICY,
      // Without an order, the built-in ones first in their default order, then the rest as answered.
      order: shown?.order ?? (builtIn ? BUILT_IN_SECTIONS.indexOf(builtIn) : BUILT_IN_SECTIONS.length + index),
    };
  });
  return listed.sort((a, b) => a.order - b.order);
}

/** A section's name in the console's language: its label, the id of one the console does not know. */
export function sectionName(sections: readonly ListedSection[] | undefined, id: string, language: Language): string {
  const listed = sections?.find((section) => section.id === id) ?? BUILT_IN_SECTIONS.find((entry) => entry.id === id);
  return listed?.labels[language] ?? id;
}
