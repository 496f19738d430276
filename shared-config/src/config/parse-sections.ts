import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import {
  BUILT_IN_SECTIONS,
  isBuiltInSection,
  labelsProblems,
  marketsProblem,
  MAX_SHOWN_SECTIONS,
  placeAfter,
  sectionIdProblem,
  type SectionEntry,
} from '@portico/contract/section-entries';
import { MARKETS, type Market } from '@portico/contract/languages';
import type { ConfigProblem, ConfigSection, SiteConfig } from './config-schema';

/**
 * config.json's `remotes` and `sections` (issue 48): any section id the
 * contract's grammar allows, not only the three built-in ones. Read with the
 * contract's own rules (section-entries.ts), so a section the file adds is
 * held to what the control API holds an added one to; each bad entry is
 * named by field and dropped, the rest used.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields that list a section on the page; an entry with none of them is a grant alone (the server writes those for the store's sections). */
const LISTING_FIELDS = ['labels', 'after', 'markets', 'hidden'] as const;
const KNOWN_FIELDS: readonly string[] = ['interactive', ...LISTING_FIELDS];
const ADDED_EXAMPLE = '{ "labels": { "en": "FAQ", "id": "Tanya Jawab" }, "after": "about" }';

/** Why a key of `remotes`, `sections` or `remoteIntegrity` names no section, or undefined. */
export function sectionKeyProblem(key: string): string | undefined {
  const problem = sectionIdProblem(key);
  return problem === undefined ? undefined : `is not a section (${problem})`;
}

/**
 * `remotes`: a manifest URL per section. Each built-in section's is required
 * (a fresh install shows the three); an added one's is any valid id's.
 * `takeUrl` reads one URL with the schema (named, or undefined).
 */
export function parseRemotes(raw: unknown, problems: ConfigProblem[], takeUrl: (field: string, value: unknown) => string | undefined): SiteConfig['remotes'] {
  if (!isRecord(raw)) {
    problems.push({ field: 'remotes', message: raw === undefined ? 'is missing (expected an object of manifest URLs)' : 'must be an object' });
    return {};
  }
  const remotes: SiteConfig['remotes'] = {};
  for (const key of [...SECTION_IDS, ...Object.keys(raw).filter((key) => !isBuiltInSection(key))]) {
    // A key that is no section's id loads nothing; naming it shows the typo.
    const problem = sectionKeyProblem(key);
    if (problem !== undefined) {
      problems.push({ field: `remotes.${key}`, message: problem });
      continue;
    }
    const url = takeUrl(`remotes.${key}`, raw[key]);
    if (url !== undefined) remotes[key] = url;
  }
  return remotes;
}

/** An added section's listing fields, each checked by the contract's rules; undefined when it cannot be listed (no labels). */
function readListing(
  field: string,
  value: Record<string, unknown>,
  builtIn: boolean,
  problems: ConfigProblem[],
): Omit<ConfigSection, 'interactive'> | undefined {
  const listing: Omit<ConfigSection, 'interactive'> = {};
  if (value.labels !== undefined || !builtIn) {
    const found = labelsProblems(value.labels);
    problems.push(...found.map((problem) => ({ field: `${field}.${problem.field}`, message: problem.message })));
    // A built-in section keeps its own labels; an added one without both is not listed (a tab needs its text).
    if (found.length > 0 && !builtIn) return undefined;
    if (found.length === 0) listing.labels = value.labels as { en: string; id: string };
  }
  if (value.after === null) listing.after = null;
  else if (value.after !== undefined) {
    const problem =
      typeof value.after === 'string' && value.after === field.slice('sections.'.length) ? 'must name another section' : sectionKeyProblem(String(value.after));
    if (typeof value.after !== 'string' || problem !== undefined)
      problems.push({ field: `${field}.after`, message: `${problem ?? 'must be a section id or null'}; it is placed last` });
    else listing.after = value.after;
  }
  if (value.markets !== undefined) {
    const problem = marketsProblem(value.markets);
    if (problem !== undefined) problems.push({ field: `${field}.markets`, message: `${problem}; it shows in every market` });
    else listing.markets = value.markets as Market[];
  }
  if (value.hidden !== undefined) {
    // Fails closed: an operator who wrote something meant to hide it.
    if (typeof value.hidden !== 'boolean') problems.push({ field: `${field}.hidden`, message: 'must be true or false; the section is hidden' });
    listing.hidden = value.hidden !== false;
  }
  return listing;
}

/**
 * `sections`: per section, the integrator's grant (`interactive`; one that
 * cannot be read fails closed: no script) and, for a section the file adds,
 * its listing (labels in both languages, `after`, `markets`, `hidden`). An
 * added section with bad labels is named and not listed; a bad `after`,
 * `markets` or `hidden` is named and that field alone dropped (`hidden`
 * fails closed). Sections past the nav's 8 are named and not listed.
 */
export function parseSections(raw: unknown, problems: ConfigProblem[]): SiteConfig['sections'] {
  if (!isRecord(raw)) {
    problems.push({ field: 'sections', message: `must be an object such as { "contact": { "interactive": true }, "faq": ${ADDED_EXAMPLE} }` });
    return Object.fromEntries(SECTION_IDS.map((id) => [id, { interactive: false }]));
  }
  const sections: NonNullable<SiteConfig['sections']> = {};
  // A built-in section the file hides (or fails closed to hidden) makes room, wherever the file lists it.
  const hides = (value: unknown) => isRecord(value) && value.hidden !== undefined && value.hidden !== false;
  let shown = SECTION_IDS.filter((id) => !hides(raw[id])).length;
  for (const [key, value] of Object.entries(raw)) {
    const field = `sections.${key}`;
    const keyProblem = sectionKeyProblem(key);
    if (keyProblem !== undefined) {
      problems.push({ field, message: keyProblem });
      continue;
    }
    const builtIn = isBuiltInSection(key);
    if (!isRecord(value)) {
      problems.push(
        builtIn
          ? { field: `${field}.interactive`, message: 'must be true or false; the section runs no script in the browser' }
          : { field, message: `must be an object such as ${ADDED_EXAMPLE}` },
      );
      if (builtIn) sections[key] = { interactive: false };
      continue;
    }
    for (const unknown of Object.keys(value).filter((name) => !KNOWN_FIELDS.includes(name))) {
      problems.push({ field: `${field}.${unknown}`, message: 'is not a known field' });
    }
    const entry: ConfigSection = {};
    if (value.interactive !== undefined || (builtIn && Object.keys(value).length === 0)) {
      if (typeof value.interactive !== 'boolean')
        problems.push({ field: `${field}.interactive`, message: 'must be true or false; the section runs no script in the browser' });
      entry.interactive = value.interactive === true;
    }
    if (LISTING_FIELDS.some((name) => value[name] !== undefined)) {
      const listing = readListing(field, value, builtIn, problems);
      const showing = !builtIn && listing !== undefined && listing.hidden !== true;
      if (showing && shown >= MAX_SHOWN_SECTIONS) {
        problems.push({ field, message: `is one more than the ${MAX_SHOWN_SECTIONS} sections the nav holds; it is not listed` });
      } else if (listing !== undefined) {
        Object.assign(entry, listing);
        if (showing) shown += 1;
      }
    }
    sections[key] = entry;
  }
  return sections;
}

/** `scheme://host[:port]` of a manifest URL, or none. */
function originOf(url: string | undefined): string[] {
  try {
    return url === undefined ? [] : [new URL(url).origin];
  } catch {
    return [];
  }
}

/**
 * The sections a deployment run from config.json alone has, in tab order:
 * the built-in three with what the file says of them (grant, place,
 * markets, hidden, labels), then each section the file adds, each placed by
 * its `after` (contract's placeAfter). Hidden and market-limited entries are
 * kept, as data (shownSections filters them for a visitor). The front server
 * merges the releases store's entries over these: the store's wins for the
 * same id. Pure: the browser's client-rendered page reads the same list.
 */
export function sectionsFromConfig(config: Pick<SiteConfig, 'sections' | 'remotes'>): SectionEntry[] {
  const written = config.sections ?? {};
  const entries = new Map<string, SectionEntry>(BUILT_IN_SECTIONS.map((entry) => [entry.id, { ...entry, markets: [...entry.markets] }]));
  let order = SECTION_IDS.map(String);
  for (const [id, section] of Object.entries(written)) {
    if (section === undefined) continue;
    const before = entries.get(id);
    if (before === undefined && section.labels === undefined) continue;
    const entry: SectionEntry = before ?? {
      id: id as SectionId,
      labels: { en: section.labels!.en!, id: section.labels!.id! },
      origins: originOf(config.remotes[id]),
      interactive: false,
      markets: [...MARKETS],
      hidden: false,
      builtIn: false,
    };
    entries.set(id, {
      ...entry,
      labels: section.labels ? { en: section.labels.en!, id: section.labels.id! } : entry.labels,
      interactive: section.interactive ?? entry.interactive,
      markets: section.markets ? section.markets.filter((market) => market !== undefined) : entry.markets,
      hidden: section.hidden ?? entry.hidden,
    });
    if (before === undefined || section.after !== undefined) order = placeAfter(order, id, section.after);
  }
  return order.map((id) => entries.get(id)!);
}
