import type { ContactFormTexts } from '@portico/contract/contact-form';
import type { SectionId } from '@portico/contract/sections';
import { pageDataScript, type PageData } from '@portico/contract/page-data';
import { pageLoadsIslandScripts } from '@portico/contract/island-scripts';
import { PAGE_DATA_SLOT, SECTION_SLOT, SECTION_STYLES_SLOT, STYLES_SLOT, type RenderedShell } from '@portico/node-sections/protocol';
import { withInlinePageScript, type PageScriptCode } from './inline-page-script';
import type { SectionResult } from './section-stage';
import type { ShellEntry } from './shell-stage';

/** A part a section's worker rendered for this page, checked, to go into that section's slot. */
export interface CandidatePart {
  section: SectionId;
  html: string;
  ids: ReadonlySet<string>;
  /** Its HTML's hash, for the page's key. */
  hash: string;
  /** The words its form carries for the server's answer (not in `html`). */
  formTexts?: ContactFormTexts;
  /** How the log names it when it is left out: `the home section is rendered in the browser`. */
  failure: string;
}

export interface Placement {
  /** Each section's slot, filled with its HTML. */
  filled: Map<SectionId, string>;
  /** The hashes of what fills each slot, in order: what the page's key knows the slot by. */
  hashes: Map<SectionId, string[]>;
  /** The sections filled, in page order. */
  rendered: SectionId[];
  /** The words each filled section's form carries for the server's answer to it, kept with the page, never in it. */
  formTexts: Map<SectionId, ContactFormTexts>;
  /** Why each part left out is left out, for the log. */
  refusals: string[];
}

/**
 * Which parts go into the page, in order: a part whose HTML takes an id of
 * the shell's, or of a part placed before it, is left out (a label or a link
 * would point into another part).
 */
export function placeParts(shellIds: ReadonlySet<string>, parts: readonly CandidatePart[]): Placement {
  const filled = new Map<SectionId, string>();
  const hashes = new Map<SectionId, string[]>();
  const formTexts = new Map<SectionId, ContactFormTexts>();
  const taken = new Set<string>();
  const refusals: string[] = [];
  for (const part of parts) {
    const clash = [...part.ids].find((value) => shellIds.has(value) || taken.has(value));
    if (clash !== undefined) {
      refusals.push(`${part.failure}: its HTML takes the id "${clash}", which the page around it uses`);
      continue;
    }
    for (const value of part.ids) taken.add(value);
    filled.set(part.section, (filled.get(part.section) ?? '') + part.html);
    hashes.set(part.section, [...(hashes.get(part.section) ?? []), part.hash]);
    if (part.formTexts && !formTexts.has(part.section)) formTexts.set(part.section, part.formTexts);
  }
  // In the order the parts came (page order), each section once.
  const rendered = [...new Set(parts.map((part) => part.section))].filter((id) => filled.has(id));
  return { filled, hashes, rendered, formTexts, refusals };
}

/** The placement with `sections` left to the browser (their slots keep their loading lines). */
export function withoutSections(placement: Placement, sections: ReadonlySet<SectionId>): Placement {
  const keep = <T>(map: Map<SectionId, T>) => new Map([...map].filter(([section]) => !sections.has(section)));
  return {
    filled: keep(placement.filled),
    hashes: keep(placement.hashes),
    rendered: placement.rendered.filter((section) => !sections.has(section)),
    formTexts: keep(placement.formTexts),
    refusals: placement.refusals,
  };
}

/** Every slot the shell worker writes, each spelt once, by the protocol that names it. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const [SLOT_START, SLOT_END] = SECTION_SLOT('\0').split('\0') as [string, string];
const [STYLES_START, STYLES_END] = SECTION_STYLES_SLOT('\0').split('\0') as [string, string];
const SLOT = new RegExp(
  [
    `${escaped(SLOT_START)}[a-z][a-z0-9-]{1,23}${escaped(SLOT_END)}`,
    `${escaped(STYLES_START)}[a-z][a-z0-9-]{1,23}${escaped(STYLES_END)}`,
    escaped(STYLES_SLOT),
    escaped(PAGE_DATA_SLOT),
  ].join('|'),
  'g',
);

export interface PageParts {
  shell: Pick<RenderedShell, 'html' | 'fallbacks' | 'styles'>;
  placement: Pick<Placement, 'filled' | 'rendered'>;
  /** The hydration data, as the page script reads it. */
  data: PageData;
  /** The page script to inline, if it can be. */
  script?: PageScriptCode;
}

/**
 * The page from its parts, and nothing else: each section's slot filled
 * with its HTML (or its loading line, left to the browser), the filled
 * sections' stylesheets linked (the first panel's in the head, the others'
 * before their panels' content), the hydration data at the end, the page
 * script inline after it. `script` comes back only if it was inlined.
 */
export function composePage({ shell, placement, data, script }: PageParts): { html: string; script?: PageScriptCode } {
  const { filled, rendered } = placement;
  const sections = new Set([...Object.keys(shell.fallbacks), ...filled.keys()]);
  const slots = new Map<string, string>([...sections].map((id) => [SECTION_SLOT(id), filled.get(id) ?? shell.fallbacks[id] ?? '']));
  // The panel shown at the first paint (the first, unless the address names
  // another: then that one waits for its own stylesheet alone) keeps its
  // stylesheets in the head; the others' go before their content, where they
  // hold back only what follows them. A shell without those slots gets all
  // of them in the head, as before.
  const first = Object.keys(shell.fallbacks)[0];
  const inBody = rendered.filter((id) => id !== first && shell.html.includes(SECTION_STYLES_SLOT(id)));
  for (const id of inBody) slots.set(SECTION_STYLES_SLOT(id), shell.styles[id] ?? '');
  slots.set(
    STYLES_SLOT,
    rendered
      .filter((id) => !inBody.includes(id))
      .map((id) => shell.styles[id] ?? '')
      .join(''),
  );
  slots.set(PAGE_DATA_SLOT, pageDataScript(data));
  // One pass over the shell: what is put in is never read again for slots.
  const composed = shell.html.replace(SLOT, (slot) => slots.get(slot) ?? '');
  // After the slots are filled: the script's code is never read for slots.
  const html = script ? withInlinePageScript(composed, script, pageLoadsIslandScripts(data)) : composed;
  return html === composed ? { html } : { html, script };
}

/** The parts whose worker answered with checked HTML; the rest are left to the browser. */
export function candidates(parts: readonly { section: SectionId; failure: string }[], results: readonly (SectionResult | undefined)[]): CandidatePart[] {
  return parts.flatMap((part, index): CandidatePart[] => {
    const result = results[index];
    return result && 'html' in result ? [{ ...result, section: part.section, failure: part.failure }] : [];
  });
}

/** A page's key: its shell's (everything the shell was made from), what fills each slot, and the manifests it inlines (by their hashes). */
export function pageKey(
  shell: ShellEntry,
  placement: Placement,
  manifests: Partial<Record<SectionId, string>>,
  hashes: Partial<Record<SectionId, string>>,
): string {
  const inlined = Object.keys(manifests)
    .filter((id) => manifests[id] !== undefined)
    .sort();
  return JSON.stringify([shell.key, placement.rendered.map((id) => placement.hashes.get(id)), inlined.map((id) => [id, hashes[id]])]);
}
