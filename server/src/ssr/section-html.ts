/**
 * The check of a section worker's answer before it goes into a page. The
 * worker runs a section team's code, so its HTML is attacker-written: it
 * must be what React writes for a tree of ordinary elements, closed where it
 * opens, so it stays inside the section's container; nothing in it may act
 * on the rest of the page (scripts, styles, `<base>`, `<meta>` refresh,
 * frames, event handlers, `javascript:` URLs, a `name` that would shadow a
 * `document` property), and nothing the page finds its own parts by
 * (contract/src/page-parts.ts): its ids are its own (`<section>-…`), so none
 * is the page data's, the shell's, another section's or a script's global,
 * and it carries none of the page's markers. Anything else and the section
 * is left to the browser for that page, as if its worker had failed.
 */
import { FORM_TEXTS_ATTRIBUTE, readFormTexts, type ContactFormTexts } from '@portico/contract/contact-form';
import { PAGE_ATTRIBUTES, islandIdPrefix, sectionOwnsId } from '@portico/contract/page-parts';
import type { SectionId } from '@portico/contract/sections';
import { readSectionAsBrowser, type SectionReading } from './browser-html';
import { misplaced, VOID_ELEMENTS } from './html-placement';

export interface SectionHtmlRules {
  /** Larger than this (UTF-8 bytes) and it is not put into a page. */
  maxBytes: number;
  /** Whose HTML it is: its ids must be that section's own. */
  section: SectionId;
}

/**
 * Accepted: the HTML as a browser's parser reads it, written out from its
 * tree (what a page puts in the slot), and the words its form carries for
 * the server's answer to it (FORM_TEXTS_ATTRIBUTE, taken out of `html`: no
 * page carries them); or why not.
 */
export type SectionHtmlCheck = { ok: true; html: string; formTexts?: ContactFormTexts } | { ok: false; reason: string };

/** Elements that act beyond their place in the page, or that the HTML parser reads differently. */
const REFUSED_ELEMENTS = new Set([
  'script',
  'style',
  'link',
  'meta',
  'base',
  'html',
  'head',
  'body',
  'title',
  'template',
  'slot',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'noscript',
  'noembed',
  'noframes',
  'plaintext',
  'xmp',
  'listing',
  'math',
  'foreignobject',
  'annotation-xml',
  // SVG's other HTML integration point (its content is read as HTML), and elements the parser reads as void.
  'desc',
  'keygen',
  'basefont',
  'bgsound',
]);

/** What React writes before a tree's HTML for each image in it (`<link rel="preload" as="image">`): the only <link> accepted. */
const IMAGE_PRELOAD_ATTRIBUTES = new Set([
  'rel',
  'as',
  'href',
  'imagesrcset',
  'imagesizes',
  'crossorigin',
  'integrity',
  'type',
  'fetchpriority',
  'referrerpolicy',
]);

/*
 * Where the HTML parser would not put an element inside the one open before
 * it: it closes elements on its own (a <li> ends the <li> open around it, a
 * <button> the button, a <div> the <p>, an <input> the <select>), drops
 * others (a <tr> outside a table), moves others (a <div> in a table), or
 * leaves <svg> for HTML elements. Then the elements it closed are not the
 * ones the section's end tags close, and a `</div>` the check pairs with
 * the section's own <div> ends the section's container in the browser. So
 * the check refuses every such place, and in what it accepts the browser's
 * elements are the check's.
 */

/** `name` shadows a property of `document` on these; on form controls it names a field only. */
const NAMED_CONTROLS = new Set(['input', 'select', 'textarea', 'button', 'output', 'fieldset']);

/**
 * Attributes whose value names elements by their ids (a list of them for
 * most): a section's may name its own elements only, not another section's
 * field (a label that focuses it, `aria-owns` that takes it into this
 * section for a screen reader) nor the shell's.
 */
const ID_REFERENCES = new Set([
  'for',
  'headers',
  'list',
  'itemref',
  'anchor',
  'aria-activedescendant',
  'aria-controls',
  'aria-describedby',
  'aria-details',
  'aria-errormessage',
  'aria-flowto',
  'aria-labelledby',
  'aria-owns',
]);

/** Attributes whose value the browser follows as a URL. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'cite', 'ping', 'background']);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

const TAG_NAME = /^[a-zA-Z][a-zA-Z0-9-]*$/;
/**
 * One attribute as React writes it: a name and a double-quoted value (React
 * escapes `"`), after HTML's own whitespace (JavaScript's `\s` also counts
 * U+00A0, U+FEFF and others, which HTML keeps inside a name).
 */
const ATTRIBUTE = /[\t\n\f\r ]+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?/y;
/** React's own comments: Suspense and text separators (`<!--$-->`, `<!--/$-->`, `<!-- -->`…). */
const REACT_COMMENT = /^[$/?!&F ]{0,4}$/;
const TEXTAREA_END = /<\/textarea>/gi;
const MAX_DEPTH = 256;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', nbsp: ' ' };

/** An attribute value as the browser reads it: character references decoded. */
function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, reference: string) => {
    if (reference[0] === '#') {
      const code = reference[1] === 'x' || reference[1] === 'X' ? parseInt(reference.slice(2), 16) : parseInt(reference.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED_ENTITIES[reference.toLowerCase()] ?? whole;
  });
}

/** Whether a URL attribute leads only where a link may: a relative URL, or http(s), mailto or tel. */
function safeUrl(value: string): boolean {
  // Browsers drop tabs and newlines inside URLs and leading control characters and spaces.
  const url = decodeAttribute(value)
    .replace(/[\t\n\r]/g, '')
    .replace(/^[\p{Cc} ]+/u, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (!scheme) return !/^[^/?#]*:/.test(url);
  return SAFE_SCHEMES.has(scheme[1]!.toLowerCase());
}

/** Why `id` may not be one of `section`'s elements' ids, or undefined. */
function foreignId(section: SectionId, id: string): string | undefined {
  return sectionOwnsId(section, id) ? undefined : `"${id}", which is not the ${section} section's own (its ids start with "${islandIdPrefix(section)}")`;
}

function checkAttributes(element: string, attributes: string, section: SectionId): string | undefined {
  ATTRIBUTE.lastIndex = 0;
  let at = 0;
  while (at < attributes.length) {
    ATTRIBUTE.lastIndex = at;
    const match = ATTRIBUTE.exec(attributes);
    if (!match)
      return /^[\t\n\f\r ]*$/.test(attributes.slice(at)) ? undefined : `<${element}> has an attribute React does not write (${attributes.slice(at, at + 40)})`;
    at = ATTRIBUTE.lastIndex;
    const name = match[1]!.toLowerCase();
    const value = match[2] ?? '';
    if (name.startsWith('on')) return `<${element}> has an event handler attribute (${name})`;
    if (name === 'id') {
      const foreign = foreignId(section, decodeAttribute(value));
      if (foreign) return `<${element}> takes the id ${foreign}`;
    }
    if (ID_REFERENCES.has(name)) {
      const foreign = decodeAttribute(value)
        .split(/[\t\n\f\r ]+/)
        .filter(Boolean)
        .map((id) => foreignId(section, id))
        .find(Boolean);
      if (foreign) return `<${element} ${name}> names the element ${foreign}`;
    }
    if (PAGE_ATTRIBUTES.includes(name)) return `<${element}> has the attribute ${name}, which marks the page's own parts`;
    if (name === 'name' && !NAMED_CONTROLS.has(element)) return `<${element}> has a name, which would shadow a property of document`;
    if (name === 'http-equiv' || name === 'srcdoc' || name === 'is') return `<${element}> has the attribute ${name}`;
    // Each names an element by its id, maybe one outside the section: another section's form to send elsewhere, the shell's dialog.
    if (name === 'form' || name === 'popovertarget' || name === 'commandfor')
      return `<${element}> has the attribute ${name}, which acts on an element outside it`;
    // SVG animation sets the attribute it names to any value it lists: an href to a javascript: URL too.
    if (name === 'attributename' && /href|^\s*on/i.test(decodeAttribute(value))) return `<${element}> animates the attribute ${value}`;
    if (URL_ATTRIBUTES.has(name) && !safeUrl(value)) return `<${element} ${name}> leads to a URL that is not http(s), mailto or tel`;
    if ((name === 'srcset' || name === 'imagesrcset') && value.split(',').some((candidate) => !safeUrl(candidate.trim().split(/\s+/)[0] ?? ''))) {
      return `<${element} srcset> names a URL that is not http(s)`;
    }
  }
  return undefined;
}

/** Whether a <link>'s attributes are those of React's image preload, each once. */
function imagePreload(attributes: string): boolean {
  const values = new Map<string, string>();
  for (const match of attributes.matchAll(new RegExp(ATTRIBUTE.source, 'g'))) {
    const name = match[1]!.toLowerCase();
    if (values.has(name) || !IMAGE_PRELOAD_ATTRIBUTES.has(name)) return false;
    values.set(name, match[2] ?? '');
  }
  return values.get('rel') === 'preload' && values.get('as') === 'image';
}

/**
 * Whether `html` may be put into the page as a section's content, and the
 * text to put there: the HTML as a browser's parser reads it, written out
 * from the tree (browser-html.ts). Not a general HTML sanitizer: it accepts
 * the narrow form React's server renderer writes, and refuses everything else.
 */
export function checkSectionHtml(html: unknown, rules: SectionHtmlRules): SectionHtmlCheck {
  return refusalAsWritten(html, rules) ?? checkAsRead(readSectionAsBrowser(html as string, FORM_TEXTS_ATTRIBUTE), rules);
}

/**
 * The worker's text checked as written, so HTML that a parser would repair
 * (an <li> that closes the <li> around it) is refused, not repaired: why, or
 * undefined when it may go on to be read as a browser reads it
 * (`readSectionAsBrowser`, on the server's event loop or off it) and `checkAsRead`.
 */
export function refusalAsWritten(html: unknown, { maxBytes, section }: SectionHtmlRules): { ok: false; reason: string } | undefined {
  if (typeof html !== 'string') return { ok: false, reason: 'the answer is not HTML text' };
  if (Buffer.byteLength(html) > maxBytes) return { ok: false, reason: `the HTML is over ${maxBytes} bytes` };
  return refusalOf(html, section);
}

/**
 * The browser's reading of HTML that passed `refusalAsWritten`, checked
 * again: only that reading is served. The form's words it gave back apart
 * are a section team's output too: kept only when they are exactly the
 * shape the answer reads (strings, each and all bounded: readFormTexts).
 */
export function checkAsRead({ html: read, taken }: SectionReading, { maxBytes, section }: SectionHtmlRules): SectionHtmlCheck {
  // Written out, a character may take more bytes (U+00A0 as `&nbsp;`).
  if (Buffer.byteLength(read) > maxBytes) return { ok: false, reason: `the HTML is over ${maxBytes} bytes` };
  const formTexts = readFormTexts(taken);
  return refusalOf(read, section) ?? { ok: true, html: read, ...(formTexts ? { formTexts } : {}) };
}

/** Why the parser's written-out HTML is not the narrow, well-placed form a section may put in the page, or undefined. */
function refusalOf(html: string, section: SectionId): { ok: false; reason: string } | undefined {
  const open: string[] = [];
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    if (lt === -1) break;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      if (end === -1) return { ok: false, reason: 'a comment is never closed' };
      if (!REACT_COMMENT.test(html.slice(lt + 4, end))) return { ok: false, reason: 'a comment React does not write' };
      at = end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt);
    if (gt === -1) return { ok: false, reason: 'a tag is never closed' };
    const tag = html.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).toLowerCase();
      if (open.pop() !== name) return { ok: false, reason: `</${name}> does not close the element open there` };
      at = gt + 1;
      continue;
    }
    const nameEnd = tag.search(/[\t\n\f\r /]|$/);
    const element = tag.slice(0, nameEnd);
    if (!TAG_NAME.test(element)) return { ok: false, reason: `"<${tag.slice(0, 20)}" is not an element React writes` };
    const name = element.toLowerCase();
    const selfClosing = tag.endsWith('/');
    const attributes = tag.slice(nameEnd, selfClosing ? -1 : undefined);
    // React puts its image preloads first, outside every element.
    const preload = name === 'link' && open.length === 0 && imagePreload(attributes);
    if (REFUSED_ELEMENTS.has(name) && !preload) return { ok: false, reason: `<${name}> is not allowed in a section` };
    const problem = misplaced(name, open) ?? checkAttributes(name, attributes, section);
    if (problem) return { ok: false, reason: problem };
    at = gt + 1;
    if (VOID_ELEMENTS.has(name)) continue;
    if (selfClosing && !open.includes('svg')) return { ok: false, reason: `<${name}/> is not a void element` };
    if (selfClosing) continue;
    if (name === 'textarea') {
      // Its content is text to the browser whatever it holds: it must hold no markup.
      // Searched in place: a lowercased copy is not as long as the text where it holds "İ", and copying it for each <textarea> is quadratic.
      TEXTAREA_END.lastIndex = at;
      const close = TEXTAREA_END.exec(html)?.index ?? -1;
      if (close === -1 || html.slice(at, close).includes('<')) return { ok: false, reason: 'a <textarea> holds markup' };
      at = close + '</textarea>'.length;
      continue;
    }
    open.push(name);
    if (open.length > MAX_DEPTH) return { ok: false, reason: `elements nest deeper than ${MAX_DEPTH}` };
  }
  if (open.length > 0) return { ok: false, reason: `<${open.at(-1)!}> is never closed` };
  return undefined;
}

/** The ids an HTML text uses, so a section's HTML may not take one of them. */
export function idsIn(html: string): Set<string> {
  const ids = new Set<string>();
  // Attribute names are read in any case: `ID="…"` is an id too.
  for (const match of html.matchAll(/\sid="([^"]*)"/gi)) ids.add(decodeAttribute(match[1]!));
  return ids;
}
