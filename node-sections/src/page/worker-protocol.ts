/**
 * The messages between the front server (`npm run serve`) and the processes
 * it starts to render the page, over Node's IPC channel (JSON). Types and
 * constants only.
 *
 * Two kinds of worker:
 * - the **shell worker** runs the host's own code only (trusted): it renders
 *   the page around the sections (head, nav, notices, footer) with an empty
 *   slot where each section goes;
 * - a **section worker** per section runs that section team's node build
 *   (untrusted) inside an OS sandbox, and renders that section alone.
 * The front server composes the page from their answers, which it checks.
 */
import type { ConfigProblem, SiteConfig } from '@portico/shared-config/config';
import type { SectionId } from '@portico/contract/sections';
import type { SectionEntry } from '@portico/contract/section-entries';
import type { Language } from '@portico/contract/languages';

/** One page's shell to render: everything the worker needs comes in the message; it reads no file. */
export interface ShellRequest {
  /** The built host index.html: its scripts and styles, and the slots the page fills. */
  template: string;
  language: Language;
  /**
   * The page's address as asked for, for its links and its `?remote.<section>=`
   * overrides (the notice; the override's section is left to the browser).
   */
  pathname: string;
  search: string;
  /** The visitor-facing origin (`https://www.example`), for the head's absolute URLs. */
  origin: string;
  /** config.json as the front server parsed it, once. */
  config: SiteConfig;
  /**
   * The page's sections, in tab order, as the front server chose them for
   * this visit (shown, in the visitor's market, each with an active release
   * or this visit's preview): a tab, a panel and a slot each, and nothing
   * for any other.
   */
  sections: readonly SectionEntry[];
  problems: readonly ConfigProblem[];
  /**
   * Each section's stylesheets with their hashes, as the front server read
   * them from its manifest (the shell parses no manifest): linked only for
   * the sections the front server then fills in. `source`, where the page
   * links a copy: the URL the section's own code loads it by.
   */
  stylesheets: Partial<Record<SectionId, readonly { href: string; integrity?: string; source?: string }[]>>;
}

/** The shell as the front server composes it. */
export interface RenderedShell {
  /**
   * The whole document, with `SECTION_SLOT(id)` inside each section's
   * container and `SECTION_STYLES_SLOT(id)` just before it, `STYLES_SLOT`
   * last in `<head>` and `PAGE_DATA_SLOT` last in `<body>`.
   */
  html: string;
  /** Each of the page's sections' markup while it is left to the browser (its loading line). */
  fallbacks: Partial<Record<SectionId, string>>;
  /** Each section's `<link rel="stylesheet">` tags, linked when that section is filled in: in the head, or before its panel's content. */
  styles: Partial<Record<SectionId, string>>;
  /** The sections a `?remote.<section>=` override takes for this visit (by the one rule the browser uses): left to the browser. */
  overridden: SectionId[];
}

/** Where the front server puts a section's HTML: a comment React never writes and text in the shell cannot forge (React escapes `<`). */
export const SECTION_SLOT = (section: SectionId) => `<!--portico:section:${section}-->`;
export const STYLES_SLOT = '<!--portico:section-styles-->';
/**
 * Before a section's container: its stylesheets when its panel is not the one
 * shown at the first paint. A stylesheet in the body holds back the rendering
 * of what follows it alone, so the first panel paints without waiting for
 * the others' (issue 48: each added section's stylesheet in the head was one
 * more step before the first paint).
 */
export const SECTION_STYLES_SLOT = (section: SectionId) => `<!--portico:section-styles:${section}-->`;
/** Before `</body>`: the hydration data (node-sections/src/page/page-data.ts), written by the front server. */
export const PAGE_DATA_SLOT = '<!--portico:page-data-->';

export type ToShellWorker = { type: 'render'; id: number; page: ShellRequest };

export type FromShellWorker = { type: 'ready' } | ({ type: 'shell'; id: number } & RenderedShell) | { type: 'failed'; id: number; reason: string };

/** A section's node build, fetched and checked by the front server, handed to its worker as text. */
export interface NodeBuild {
  /** The node build's SHA-384 (as its manifest gives it): the build's identity. */
  key: string;
  /** Where it was fetched from, for stack traces and messages. */
  url: string;
  code: string;
}

/** What one section is rendered from: the section alone, never the visitor's address. */
export interface SectionRenderRequest {
  /** `NodeBuild.key` of a build this worker has loaded. */
  build: string;
  config: SiteConfig;
  problems: readonly ConfigProblem[];
  language: Language;
}

export type ToSectionWorker =
  /** Evaluates each build; the answer says which failed. */
  { type: 'load'; id: number; section: SectionId; builds: NodeBuild[] } | { type: 'render'; id: number; request: SectionRenderRequest };

export type FromSectionWorker =
  | { type: 'ready' }
  | { type: 'loaded'; id: number; failed: { key: string; reason: string }[] }
  | { type: 'html'; id: number; html: string }
  | { type: 'failed'; id: number; reason: string };
