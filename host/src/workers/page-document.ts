import { escapeHtml } from '@portico/contract/html';
import { PAGE_DATA_SLOT } from '@portico/node-sections/protocol';

/** index.html's markers (`<!--!…-->`: the minifier keeps comments that start with `!`). */
const ROOT = /<!--!portico:root-->[\s\S]*?<!--!\/portico:root-->/;
const CLIENT_ONLY = /<!--!portico:client-only-->[\s\S]*?<!--!\/portico:client-only-->/g;
const HEAD_SLOT = '<!--!portico:head-->';
const HTML_TAG = /<html(\s[^>]*)?>/;
const TITLE = /<title>[\s\S]*?<\/title>/;
/** html-webpack-plugin's tag for the page's entry script (`scriptLoading: 'defer'`). */
const DEFERRED_SCRIPT = /<script defer(?:="defer")? src="?([^"\s>]+)"?><\/script>/g;
/** index.html's note of the page script's file (`<!--!portico:page-script page-script.<hash>.js-->`). */
const PAGE_SCRIPT = /<!--!portico:page-script ([\w.-]*)-->/;
/** index.html's note of the islands' entry (`<!--!portico:islands-script islands.<hash>.js-->`), empty in a host built without one. */
const ISLANDS_SCRIPT = /<!--!portico:islands-script ([\w.-]*)-->/;

export interface PageDocumentParts {
  /** The built index.html. */
  template: string;
  /** `<html lang>`. */
  lang: string;
  /** `<title>`, or undefined to keep the template's. */
  title: string | undefined;
  /** Tags for `<head>`, inserted as they are. */
  head: string;
  /**
   * Stylesheet links, last in `<head>`: after the shell's CSS, as the
   * browser's own loading of a section's CSS would put them, so the cascade
   * is the same either way.
   */
  styles?: string;
  /** The rendered React root, hydrated as it is. */
  root: string;
}

export class TemplateError extends Error {}

/** The page script index.html names, or undefined (a host built without one). */
function pageScriptOf(template: string): string | undefined {
  return PAGE_SCRIPT.exec(template)?.[1] || undefined;
}

/**
 * The server-rendered page: the built index.html (its scripts, styles and
 * icon) with the rendered root in place of the shell it draws before
 * scripts, a slot for the hydration data before `</body>` (the front server
 * writes it, once it knows which sections it filled in), and without what only the
 * client-rendered page needs (the config.json preload, the noscript notice).
 * Its one script is the page script, which loads the entry script when an
 * island needs it.
 */
export function pageDocument({ template, lang, title, head, styles = '', root }: PageDocumentParts): string {
  if (!ROOT.test(template) || !template.includes(HEAD_SLOT) || !HTML_TAG.test(template) || !template.includes('</head>') || !template.includes('</body>')) {
    throw new TemplateError('index.html lacks the markers of a server-rendered page (a host built before them?)');
  }
  const pageScript = pageScriptOf(template);
  if (!pageScript) throw new TemplateError('index.html names no page script (a development build, or a host built before it?)');
  const islands = ISLANDS_SCRIPT.exec(template)?.[1];
  // The front server keeps one of the two entries when it inlines the page script (server/src/ssr/inline-page-script.ts).
  const islandsAttribute = islands ? ` data-islands="${escapeHtml(islands)}"` : '';
  // Functions as replacements: a `$` in the inserted text stays a `$`.
  let page = template
    .replace(HTML_TAG, () => `<html lang="${escapeHtml(lang)}">`)
    .replace(CLIENT_ONLY, '')
    .replace(HEAD_SLOT, () => head)
    .replace(PAGE_SCRIPT, '')
    .replace(ISLANDS_SCRIPT, '')
    // The page script runs; the host's own script (React and the sections'
    // loader: the islands' entry, or the federated one) is loaded by it only
    // when an island needs it.
    .replace(DEFERRED_SCRIPT, (_tag, src: string) => `<script defer src="${escapeHtml(pageScript)}" data-src="${escapeHtml(src)}"${islandsAttribute}></script>`)
    .replace('</head>', () => `${styles}</head>`)
    .replace(ROOT, () => root)
    .replace('</body>', () => `${PAGE_DATA_SLOT}</body>`);
  if (title !== undefined) page = page.replace(TITLE, () => `<title>${escapeHtml(title)}</title>`);
  return page;
}
