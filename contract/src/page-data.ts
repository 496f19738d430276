/**
 * The hydration data a server-rendered page carries for the browser, in a
 * `<script type="application/json">` (data, never run: the CSP stays as it
 * is). Pure, no DOM and no Node: the render worker writes it, the host's
 * browser bundle reads it.
 */
import { scriptSafeJson } from './html';
import { type SectionId } from './sections';
import { type Language } from './languages';
import { LABEL_BOUNDS, SECTION_ID_PATTERN, type SectionEntry } from './section-entries';
import { DEFAULT_HYDRATION, readHydration, type Hydration } from './hydration';
import { PAGE_DATA_ID } from './page-parts';

export { PAGE_DATA_ID } from './page-parts';

/** A tab of the page: its section's id and its label in the page's language (plain text). */
export interface PageSection {
  id: SectionId;
  label: string;
}

/** The page's tabs from the list the front server chose for it (shown, ordered), labelled in `language`. */
export function pageSectionsOf(entries: readonly SectionEntry[], language: Language): PageSection[] {
  return entries.map(({ id, labels }) => ({ id, label: labels[language] }));
}

export interface PageData {
  /**
   * config.json as the server's parseConfig left it (only its valid fields;
   * this page's market's blocks): the browser uses it as it is and carries
   * no parser (issue 50).
   */
  config: unknown;
  language: Language;
  /**
   * The page's sections, in tab order, as the front server chose them for
   * this visit (shown, in its market): the page script's tabs, hash and
   * islands, and the labels an island's loading line and alert use.
   */
  sections: PageSection[];
  /**
   * Each section's mf-manifest.json text exactly as the front server fetched
   * it: the browser checks the pin on these bytes and loads the versions the
   * server rendered, with no request for the manifest.
   */
  manifests: Partial<Record<SectionId, string>>;
  /**
   * The sections whose HTML the server put in the page (each rendered by its
   * own section worker): the browser hydrates those and renders the others.
   */
  rendered: SectionId[];
  /**
   * How each section with a manifest hydrates, as its manifest declares
   * (`hydration.ts`): the page's first script reads it to know which
   * sections ever need code, and when.
   */
  hydration: Partial<Record<SectionId, Hydration>>;
  /**
   * What the server's reading of config.json found wrong, field by field:
   * the page script tells the operator on the console without the schema
   * (the shell already shows the notice).
   */
  problems: { field: string; message: string }[];
  /**
   * config.json's `allowedRemoteOrigins` as the server read it: the page
   * script applies the override rule to the address with them and warns of
   * each override it refuses, whether or not an island ever hydrates. The
   * refusals are not in the page: the server renders the page without them
   * (contract/src/page-query.ts), so an address full of them makes no new page.
   */
  allowedRemoteOrigins: string[];
}

/** The `<script type="application/json">` element holding `data`. */
export function pageDataScript(data: PageData): string {
  return `<script type="application/json" id="${PAGE_DATA_ID}">${scriptSafeJson(data)}</script>`;
}

const LANGUAGE_VALUES: readonly string[] = ['en', 'id'];

/** The page data from the script's text, or undefined when it is missing or not what the server writes. */
export function parsePageData(text: string | null | undefined): PageData | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { config, language, sections, manifests, rendered, hydration, problems, allowedRemoteOrigins } = value as Record<string, unknown>;
  if (typeof language !== 'string' || !LANGUAGE_VALUES.includes(language)) return undefined;
  if (typeof manifests !== 'object' || manifests === null) return undefined;
  const listed = readSections(sections);
  const ids = listed.map(({ id }) => id);
  const texts = Object.fromEntries(Object.entries(manifests).filter(([id, manifest]) => typeof manifest === 'string' && ids.includes(id)));
  const hydrated = Array.isArray(rendered) ? ids.filter((id) => rendered.includes(id)) : [];
  const declared: Partial<Record<SectionId, Hydration>> = {};
  const given = typeof hydration === 'object' && hydration !== null ? (hydration as Record<string, unknown>) : {};
  for (const id of ids) {
    const read = readHydration(given[id]);
    // A static section the server rendered comes without its manifest (the browser never loads it), with its declaration.
    if (id in texts || given[id] !== undefined) declared[id] = 'problem' in read ? DEFAULT_HYDRATION : read;
  }
  const named = (Array.isArray(problems) ? problems : []).filter(
    (problem): problem is { field: string; message: string } =>
      typeof problem === 'object' && problem !== null && typeof problem.field === 'string' && typeof problem.message === 'string',
  );
  const origins = (Array.isArray(allowedRemoteOrigins) ? allowedRemoteOrigins : []).filter((origin): origin is string => typeof origin === 'string');
  return {
    config,
    language: language as Language,
    sections: listed,
    manifests: texts,
    rendered: hydrated,
    hydration: declared,
    problems: named.map(({ field, message }) => ({ field, message })),
    allowedRemoteOrigins: origins,
  };
}

/**
 * The page's sections as written: each with an id the contract allows and a
 * plain-text label, once; anything else is dropped (its panel is then never
 * shown nor loaded). No list, no sections: the page script and the server
 * that writes the list are one build (the script is inlined by the server),
 * so no default list is carried into every page's script.
 */
function readSections(sections: unknown): PageSection[] {
  if (!Array.isArray(sections)) return [];
  const read: PageSection[] = [];
  for (const section of sections as unknown[]) {
    if (typeof section !== 'object' || section === null) continue;
    const { id, label } = section as Record<string, unknown>;
    // The server wrote the list with the contract's rules; the page only keeps what it can use (an id that can be an element's, a short text), with no words to carry.
    if (
      typeof id !== 'string' ||
      !SECTION_ID_PATTERN.test(id) ||
      typeof label !== 'string' ||
      label.length > 4 * LABEL_BOUNDS.max ||
      read.some((one) => one.id === id)
    )
      continue;
    read.push({ id, label });
  }
  return read;
}
