import type { DefaultTreeAdapterMap } from 'parse5';
import type { ContactFormTexts } from '@portico/contract/contact-form';
import { FIELD_LIMITS, type TextField } from '@portico/contract/contact-wire';
import { sectionOwnsId } from '@portico/contract/page-parts';
import type { PageHtml } from './ssr/rendering-contract';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

/** What the answer to a form sent without script shows in the Contact section's form. */
export interface FormAnswer {
  /** What was typed, put back into the fields. */
  values?: Record<TextField, string>;
  /** Each field marked, with the sentence under it: `required`, or the field's `invalid` text. */
  marked?: { field: TextField; reason: 'required' | 'invalid' }[];
  /** The sentence for the whole form: an alert under the button, or (`sent`) the thank-you after the form. */
  notice?: Exclude<keyof ContactFormTexts, 'invalid' | 'required'>;
}

const FIELDS = Object.keys(FIELD_LIMITS) as TextField[];
const FORM_TAG = /<form\b[^>]*>/g;
const ATTRIBUTE = /\s([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?/g;

// parse5 is required by the first answer to a form sent without script, not
// when the server starts (with browser-html.ts, issue 47: 20-180 ms of it).
let parse5: typeof import('parse5') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
const html5 = () => (parse5 ??= require('parse5') as typeof import('parse5'));

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The opening tag's attributes as the serialiser writes them (double quotes, `"` and `&` escaped). */
function attributesOf(tag: string): Map<string, string> {
  return new Map([...tag.matchAll(ATTRIBUTE)].map((match) => [match[1]!.toLowerCase(), decode(match[2] ?? '')]));
}

/**
 * Where the Contact section's form is in the page: the `<form>` whose id is
 * the Contact section's own. No other section's HTML can take an id of
 * Contact's (the front server refuses it), so no other part of the page can
 * stand in for it; `<` is escaped in text, and a quote in an attribute, so a
 * tag cannot be forged in either.
 */
function findForm(page: string): { start: number; end: number } | undefined {
  for (const match of page.matchAll(FORM_TAG)) {
    const id = attributesOf(match[0]).get('id');
    if (id === undefined || !sectionOwnsId('contact', id)) continue;
    const end = page.indexOf('</form>', match.index);
    return end === -1 ? undefined : { start: match.index, end: end + '</form>'.length };
  }
  return undefined;
}

const attr = (element: Element, name: string) => element.attrs.find((attribute) => attribute.name === name)?.value;

function setAttr(element: Element, name: string, value: string): void {
  const found = element.attrs.find((attribute) => attribute.name === name);
  if (found) found.value = value;
  else element.attrs.push({ name, value });
}

function elementsOf(node: Node): Element[] {
  const children = 'childNodes' in node ? node.childNodes : [];
  return children.flatMap((child) => (html5().defaultTreeAdapter.isElementNode(child) ? [child, ...elementsOf(child)] : []));
}

function paragraph(text: string, attrs: Record<string, string>): Element {
  const element = html5().defaultTreeAdapter.createElement(
    'p',
    html5().html.NS.HTML,
    Object.entries(attrs).map(([name, value]) => ({ name, value })),
  );
  html5().defaultTreeAdapter.insertText(element, text);
  return element;
}

/** Fills the form's fields and marks them (parse5 writes every value out escaped: typed HTML stays text). */
function fillForm(form: Element, answer: FormAnswer, texts: ContactFormTexts): void {
  const controls = elementsOf(form).filter((element) => ['input', 'textarea'].includes(element.tagName));
  let first: Element | undefined;
  for (const field of FIELDS) {
    const control = controls.find((element) => attr(element, 'name') === field);
    if (!control) continue;
    const value = answer.values?.[field];
    if (value !== undefined && control.tagName === 'textarea') {
      control.childNodes = [];
      html5().defaultTreeAdapter.insertText(control, value);
    } else if (value !== undefined) setAttr(control, 'value', value);
    const mark = answer.marked?.find((marked) => marked.field === field);
    if (!mark) continue;
    // The client's own error id, so the same sentence is named the same way with or without script.
    const errorId = `${attr(control, 'id') ?? field}-error`;
    setAttr(control, 'aria-invalid', 'true');
    setAttr(control, 'aria-describedby', errorId);
    if (!first) {
      first = control;
      setAttr(control, 'autofocus', '');
    }
    const error = paragraph(mark.reason === 'required' ? texts.required : texts.invalid[field], { id: errorId, class: 'contact-form__error' });
    const parent = control.parentNode as Element;
    parent.childNodes.splice(parent.childNodes.indexOf(control) + 1, 0, error);
    error.parentNode = parent;
  }
}

/**
 * The page with the Contact form's answer in it: the fields filled with what
 * was typed, each field in error marked with its sentence, and the notice,
 * in the words Contact's form carried when the server checked its HTML (kept
 * with the page, not in it). Only the form's own markup is read and written
 * again (a few KB), never the whole page; undefined when the page holds no
 * Contact form of the server's (the section was left to the browser) or no
 * words for it, and the caller answers without it.
 */
export function withFormAnswer({ html: page, formTexts }: Pick<PageHtml, 'html' | 'formTexts'>, answer: FormAnswer): string | undefined {
  const texts = formTexts.get('contact');
  const found = texts && findForm(page);
  if (!texts || !found) return undefined;
  const fragment = html5().parseFragment(html5().defaultTreeAdapter.createElement('div', html5().html.NS.HTML, []), page.slice(found.start, found.end), {});
  const form = fragment.childNodes.find((node): node is Element => html5().defaultTreeAdapter.isElementNode(node) && node.tagName === 'form');
  if (!form) return undefined;
  fillForm(form, answer, texts);
  if (answer.notice === 'sent') {
    html5().defaultTreeAdapter.appendChild(fragment, paragraph(texts.sent, { class: 'contact-section__thanks', role: 'status' }));
  } else if (answer.notice) {
    const alert = html5().defaultTreeAdapter.createElement('div', html5().html.NS.HTML, [
      { name: 'role', value: 'alert' },
      { name: 'class', value: 'contact-form__delivery' },
    ]);
    html5().defaultTreeAdapter.appendChild(alert, paragraph(texts[answer.notice], {}));
    html5().defaultTreeAdapter.appendChild(form, alert);
  }
  return page.slice(0, found.start) + html5().serialize(fragment) + page.slice(found.end);
}
