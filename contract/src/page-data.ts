/**
 * The hydration data a server-rendered page carries for the browser, in a
 * `<script type="application/json">` (data, never run: the CSP stays as it
 * is). Pure, no DOM and no Node: the render worker writes it, the host's
 * browser bundle reads it.
 */
import { scriptSafeJson } from './html';
import { SECTION_IDS, type SectionId } from './sections';
import { type Language } from './languages';
import { DEFAULT_HYDRATION, readHydration, type Hydration } from './hydration';
import { PAGE_DATA_ID } from './page-parts';

export { PAGE_DATA_ID } from './page-parts';

export interface PageData {
  /** config.json as the server read it (a JSON value); the browser parses it with the same parseConfig. */
  config: unknown;
  language: Language;
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
  const { config, language, manifests, rendered, hydration, problems, allowedRemoteOrigins } = value as Record<string, unknown>;
  if (typeof language !== 'string' || !LANGUAGE_VALUES.includes(language)) return undefined;
  if (typeof manifests !== 'object' || manifests === null) return undefined;
  const texts = Object.fromEntries(Object.entries(manifests).filter(([, manifest]) => typeof manifest === 'string'));
  const hydrated = Array.isArray(rendered) ? SECTION_IDS.filter((id) => rendered.includes(id)) : [];
  const declared: Partial<Record<SectionId, Hydration>> = {};
  for (const id of SECTION_IDS) {
    const read = readHydration(typeof hydration === 'object' && hydration !== null ? (hydration as Record<string, unknown>)[id] : undefined);
    if (id in texts) declared[id] = 'problem' in read ? DEFAULT_HYDRATION : read;
  }
  const named = (Array.isArray(problems) ? problems : []).filter(
    (problem): problem is { field: string; message: string } =>
      typeof problem === 'object' && problem !== null && typeof problem.field === 'string' && typeof problem.message === 'string',
  );
  const origins = (Array.isArray(allowedRemoteOrigins) ? allowedRemoteOrigins : []).filter((origin): origin is string => typeof origin === 'string');
  return {
    config,
    language: language as Language,
    manifests: texts,
    rendered: hydrated,
    hydration: declared,
    problems: named.map(({ field, message }) => ({ field, message })),
    allowedRemoteOrigins: origins,
  };
}
