// Where the browser's HTML parser puts an element (HTML's tree construction,
// the part a section's HTML can meet): section-html.ts refuses an element
// the parser would move out of where it is written, since a moved element
// could leave the section's container.

/** Elements with no end tag. */
export const VOID_ELEMENTS = new Set(['area', 'br', 'col', 'hr', 'img', 'input', 'link', 'param', 'source', 'track', 'wbr']);

/** `<p>` is ended by these when it is open (HTML's "close a p element"). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'plaintext',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'ul',
  'xmp',
]);
/** The elements an "in scope" search stops at (the foreign ones are refused). */
const SCOPE = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template']);
const BUTTON_SCOPE = new Set([...SCOPE, 'button']);
/** HTML's special elements that can be open: a search for an open <li>, <dd> or <dt> stops at them, except at address, div and p. */
const STOPS_LIST_ITEMS = new Set([
  'applet',
  'article',
  'aside',
  'blockquote',
  'button',
  'caption',
  'center',
  'colgroup',
  'details',
  'dir',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'main',
  'marquee',
  'menu',
  'nav',
  'ol',
  'pre',
  'search',
  'section',
  'select',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
/** Inside these only these elements stay where they are written. */
const ONLY_CHILDREN: Record<string, readonly string[]> = {
  table: ['caption', 'colgroup', 'thead', 'tbody', 'tfoot'],
  thead: ['tr'],
  tbody: ['tr'],
  tfoot: ['tr'],
  tr: ['td', 'th'],
  colgroup: ['col'],
  select: ['option', 'optgroup', 'hr'],
  optgroup: ['option'],
  option: [],
};
/** These stay where they are written only inside these. */
const ONLY_IN: Record<string, readonly string[]> = {
  caption: ['table'],
  colgroup: ['table'],
  thead: ['table'],
  tbody: ['table'],
  tfoot: ['table'],
  tr: ['thead', 'tbody', 'tfoot'],
  td: ['tr'],
  th: ['tr'],
  col: ['colgroup'],
  option: ['select', 'optgroup', 'datalist'],
  optgroup: ['select'],
  rb: ['ruby'],
  rtc: ['ruby'],
  rt: ['ruby', 'rtc'],
  rp: ['ruby', 'rtc'],
};
/** HTML elements that end an open <svg> where they start (the parser's breakout from foreign content). */
const LEAVE_SVG = new Set([
  'b',
  'big',
  'blockquote',
  'body',
  'br',
  'center',
  'code',
  'dd',
  'div',
  'dl',
  'dt',
  'em',
  'embed',
  'font',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'hr',
  'i',
  'img',
  'li',
  'listing',
  'menu',
  'meta',
  'nobr',
  'ol',
  'p',
  'pre',
  'ruby',
  's',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'table',
  'tt',
  'u',
  'ul',
  'var',
]);
const HEADING = /^h[1-6]$/;

/** Whether `name` is open in `open` before one of `stops`, searching from the innermost. */
function inScope(open: readonly string[], name: string, stops: ReadonlySet<string>): boolean {
  for (let at = open.length - 1; at >= 0; at -= 1) {
    if (open[at] === name) return true;
    if (stops.has(open[at]!)) return false;
  }
  return false;
}

/** Why the browser would not put `<name>` inside the element open last (`open`, innermost last), or undefined. */
export function misplaced(name: string, open: readonly string[]): string | undefined {
  if (open.includes('svg')) {
    if (LEAVE_SVG.has(name)) return `<${name}> inside <svg> ends the <svg> in a browser`;
    return VOID_ELEMENTS.has(name) ? `<${name}> inside <svg> is not void there` : undefined;
  }
  const parent = open.at(-1);
  const children = parent === undefined ? undefined : ONLY_CHILDREN[parent];
  if (children && !children.includes(name)) return `<${name}> inside <${parent}> is not kept there by a browser`;
  const parents = ONLY_IN[name];
  if (parents && !parents.includes(parent ?? '')) return `<${name}> outside ${parents.map((one) => `<${one}>`).join(' or ')} is not kept there by a browser`;
  if (name === 'image') return '<image> outside <svg> is read as <img>';
  if (CLOSES_P.has(name) && inScope(open, 'p', BUTTON_SCOPE)) return `<${name}> inside <p> ends the <p> in a browser`;
  if (HEADING.test(name) && HEADING.test(parent ?? '')) return `<${name}> inside <${parent}> ends the <${parent}> in a browser`;
  if (name === 'button' && inScope(open, 'button', SCOPE)) return '<button> inside <button> ends the outer one in a browser';
  if ((name === 'a' || name === 'nobr' || name === 'form') && open.includes(name)) return `<${name}> inside <${name}> is not kept there by a browser`;
  if (name === 'li' || name === 'dd' || name === 'dt') {
    const items = name === 'li' ? ['li'] : ['dd', 'dt'];
    for (let at = open.length - 1; at >= 0; at -= 1) {
      const element = open[at]!;
      if (items.includes(element)) return `<${name}> inside <${element}> ends the <${element}> in a browser`;
      if (STOPS_LIST_ITEMS.has(element)) return undefined;
    }
    // The search would go on into the page around the section.
    return `<${name}> outside a list is not kept there by a browser`;
  }
  return undefined;
}
