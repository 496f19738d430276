/**
 * Sections as data (issue 48): what a section is besides its releases, the
 * rules its id and labels follow, and how the list becomes the page's tabs.
 * One module, pure (no Node, no DOM), so the control API that stores an
 * entry, config.json's reader, the front server and the browser all apply the
 * same rules. The three built-in sections are the default list.
 */
import { LANGUAGES, MARKETS, type Language, type Market } from './languages';
import { BUILT_IN_GRANTS, SECTION_IDS, type SectionId } from './sections';

export type SectionLabels = Record<Language, string>;

/** A section as the page and the control plane know it, apart from its releases. */
export interface SectionEntry {
  id: SectionId;
  /** Its tab's text in each language: plain text, never markup. */
  labels: SectionLabels;
  /** Where its releases may be published from (`allowedRemoteOrigins` does this for the built-in ones). */
  origins: string[];
  /** The integrator's grant: whether its builds may run script in the visitor's browser. */
  interactive: boolean;
  /** The markets it shows in: `IN` (`?type=1`), `ID` (`?type=2`) or both. */
  markets: Market[];
  hidden: boolean;
  /** One of the three defaults: never retired, only hidden. */
  builtIn: boolean;
}

/** The most tabs the nav holds (issue 48, item 7): an add past it is refused. */
export const MAX_SHOWN_SECTIONS = 8;

/** Label bounds, in characters as a reader counts them (code points). */
export const LABEL_BOUNDS = { min: 1, max: 40 } as const;

/** The built-in labels, as the host's language packs had them. */
const BUILT_IN_LABELS: Record<(typeof SECTION_IDS)[number], SectionLabels> = {
  home: { en: 'Home', id: 'Beranda' },
  about: { en: 'About Us', id: 'Tentang Kami' },
  contact: { en: 'Contact us', id: 'Hubungi Kami' },
};

/** The default list: a fresh install's sections, in tab order. */
// Pure: a bundle that reads no default (the page script) carries none of it.
export const BUILT_IN_SECTIONS: readonly SectionEntry[] = /* @__PURE__ */ SECTION_IDS.map((id) => ({
  id,
  labels: BUILT_IN_LABELS[id],
  origins: [],
  interactive: BUILT_IN_GRANTS[id].interactive,
  markets: [...MARKETS],
  hidden: false,
  builtIn: true,
}));

export function isBuiltInSection(id: string): boolean {
  return (SECTION_IDS as readonly string[]).includes(id);
}

/**
 * Words an id may not be: the server's paths and the element ids the page
 * already uses (a section's id is its panel's element id and its `#` anchor).
 */
const RESERVED_SECTION_IDS: readonly string[] = [
  'api',
  'config',
  'console',
  'static',
  'assets',
  'health',
  'metrics',
  'root',
  'privacy',
  'main',
  'theme',
  'webpack',
];
/** Prefixes of element ids the page uses: `tab-<id>` is each tab, `portico-…` the page's own parts. */
const RESERVED_SECTION_PREFIXES: readonly string[] = ['tab-', 'portico-', 'section-'];

/** The id grammar alone (reserved words apart): for schemas that read ids back. */
export const SECTION_ID_PATTERN = /^[a-z][a-z0-9-]{1,23}$/;
const ID_GRAMMAR = SECTION_ID_PATTERN;

/** Why `id` cannot name a section, or undefined when it can (whether it is taken is the store's to say). */
export function sectionIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'id must be a string';
  if (!ID_GRAMMAR.test(id)) {
    return `id "${id.slice(0, 40)}" must be 2 to 24 lowercase ASCII letters, digits or "-", starting with a letter`;
  }
  if (id.endsWith('-') || id.includes('--')) return `id "${id}" must not end with "-" or hold "--"`;
  if (RESERVED_SECTION_IDS.includes(id)) return `id "${id}" is a reserved word (the page or the server uses it)`;
  const prefix = RESERVED_SECTION_PREFIXES.find((one) => id.startsWith(one));
  if (prefix !== undefined) return `id "${id}" starts with "${prefix}", which the page's own element ids use`;
  return undefined;
}

// Controls, and the marks that change how text around them is read (bidi
// overrides, isolates, zero-width joiners): a label is shown as it is typed.
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** Why `label` cannot be a tab's text, or undefined when it can. */
function labelProblem(label: unknown): string | undefined {
  if (typeof label !== 'string') return 'must be a string';
  const length = [...label.trim()].length;
  if (length < LABEL_BOUNDS.min) return 'must not be empty';
  if (length > LABEL_BOUNDS.max) return `must be at most ${LABEL_BOUNDS.max} characters`;
  if (label !== label.trim()) return 'must not start or end with a space';
  if (UNSHOWABLE.test(label)) return 'must be plain text, without control or direction characters';
  if (/[<>]/.test(label)) return 'must be plain text, without "<" or ">"';
  return undefined;
}

/** Each problem of a `labels` object, by field (`labels.en`), empty when it is whole. */
export function labelsProblems(labels: unknown, partial = false): { field: string; message: string }[] {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
    return [{ field: 'labels', message: `must be an object with ${LANGUAGES.join(' and ')}` }];
  }
  const record = labels as Record<string, unknown>;
  const problems: { field: string; message: string }[] = [];
  for (const key of Object.keys(record)) {
    if (!(LANGUAGES as readonly string[]).includes(key)) problems.push({ field: `labels.${key}`, message: `is not a language (use ${LANGUAGES.join(', ')})` });
  }
  for (const language of LANGUAGES) {
    if (record[language] === undefined) {
      if (!partial) problems.push({ field: `labels.${language}`, message: 'is required (a tab is labelled in both languages)' });
      continue;
    }
    const problem = labelProblem(record[language]);
    if (problem !== undefined) problems.push({ field: `labels.${language}`, message: problem });
  }
  return problems;
}

/** Why `markets` is not a list of markets, or undefined. */
export function marketsProblem(markets: unknown): string | undefined {
  if (!Array.isArray(markets) || markets.length === 0) return `must be a non-empty list of ${MARKETS.join(', ')}`;
  const unknown = markets.find((market) => !(MARKETS as readonly unknown[]).includes(market));
  if (unknown !== undefined) return `"${String(unknown)}" is not a market (use ${MARKETS.join(', ')})`;
  if (new Set(markets).size !== markets.length) return 'must not name a market twice';
  return undefined;
}

/**
 * `order` with `id` moved to just after `after`: `null` puts it first,
 * `undefined` (or an `after` not in the list) last. `id` need not be in
 * `order` yet.
 */
export function placeAfter(order: readonly string[], id: string, after: string | null | undefined): string[] {
  const rest = order.filter((one) => one !== id);
  if (after === null) return [id, ...rest];
  const at = after === undefined ? -1 : rest.indexOf(after);
  if (at === -1) return [...rest, id];
  return [...rest.slice(0, at + 1), id, ...rest.slice(at + 1)];
}

/** The tabs a visitor of `market` gets, in order: not hidden, and shown in that market. */
export function shownSections(entries: readonly SectionEntry[], market: Market): SectionEntry[] {
  return entries.filter((entry) => !entry.hidden && entry.markets.includes(market));
}
