/**
 * @jest-environment jsdom
 */
import { codePoint, nameSpaceEscape, NON_HTML_SPACES } from '@portico/testing/hostile-builds';
import { checkSectionHtml } from '../section-html';

// The check reads a section's HTML as a tree of elements; a browser builds
// its tree with the HTML parser, which closes, drops and moves elements on
// its own. Here the section's HTML is put into a page shaped like the
// shell's and parsed as a browser does (jsdom's parser follows the HTML
// standard), to show that what the check refuses does leave the slot, and
// that what it accepts is read by the browser exactly as written.

const RULES = { maxBytes: 1024 * 1024, section: 'home' } as const;

const slot = (id: string, html: string) => `<section id="${id}"><div data-section-island="${id}"><div class="section-root">${html}</div></div></section>`;

/** Pages shaped like the shell's: a slot for each section, then a footer. */
function parseSlots(sections: readonly string[]): { roots: Element[]; body: HTMLElement } {
  const page =
    '<!doctype html><html><head><title>Portico</title></head><body>' +
    sections.map((html, index) => slot(`section-${index}`, html)).join('') +
    '<footer id="page-footer">The operator\'s footer</footer></body></html>';
  const document = new DOMParser().parseFromString(page, 'text/html');
  return { roots: [...document.querySelectorAll('.section-root')], body: document.body };
}

function parsePage(sectionHtml: string): { root: Element; body: HTMLElement } {
  const { roots, body } = parseSlots([sectionHtml]);
  return { root: roots[0]!, body };
}

/** Whether anything the section wrote ended up outside its slot, or the slot took in the page after it. */
function leavesSlot(sectionHtml: string): boolean {
  const { root, body } = parsePage(sectionHtml);
  const marker = body.querySelector('[data-attacker]');
  const footer = body.querySelector('#page-footer');
  return (marker !== null && !root.contains(marker)) || root.contains(footer) || footer?.parentElement !== body;
}

describe('HTML that is well nested as text but not to a browser', () => {
  // Each ends with an element the attacker wants outside the section.
  const after = '<footer data-attacker="">Pay here</footer>';
  test.each([
    ['an <li> inside a <div> inside an <li>', `<ul><li><div><li></li></div></li></ul>${after}`],
    ['a <dt> inside a <div> inside a <dd>', `<dl><dd><div><dt></dt></div></dd></dl>${after}`],
    ['a <button> inside a <div> inside a <button>', `<button><div><button></button></div></button>${after}`],
    ['an <input> inside a <div> inside a <select>', `<select><div><input/></div></select>${after}`],
    ['a <select> inside a <div> inside a <select>', `<select><div><select></select></div></select>${after}`],
    ['a <table> inside a <div> inside a <table>', `<table><div><table></table></div></table>${after}`],
    // A <table> left open takes in the rest of the page: the shell's end tags do not reach past it.
    ['a self-closed <table> inside <svg>, which stays open', '<svg><table/></svg>'],
    ['an HTML element inside <svg>, then a self-closed <table>', '<svg><b></b><table/></svg>'],
    ['a self-closed <div> inside <svg><desc>', '<svg><desc><div/></desc></svg>'],
    // A tag name ends at HTML's whitespace only: each of these is an unknown element, and its end tag closes the slot's own.
    ...NON_HTML_SPACES.map((space): [string, string] => [`elements named with ${codePoint(space)} after "div"`, nameSpaceEscape(space, after)]),
  ])('%s: a browser takes it out of the slot, and the check refuses it', (_what, html) => {
    expect(leavesSlot(html)).toBe(true);
    expect(checkSectionHtml(html, RULES)).toEqual({ ok: false, reason: expect.any(String) });
  });

  test('two nested escapes reach the page body: an <li> that closes the divs, a <button> that closes the <section>', () => {
    const html =
      '<ul><li><div><div><div><li></li></div></div></div></li></ul><button><section><button></button></section></button><footer data-attacker="">Pay here</footer>';
    const { body } = parsePage(html);
    expect(body.querySelector('[data-attacker]')?.parentElement).toBe(body);
    expect(checkSectionHtml(html, RULES).ok).toBe(false);
  });
});

describe('whatever the check accepts, a browser reads as written', () => {
  // Elements whose place the HTML parser treats specially, and ordinary ones.
  const NAMES = [
    'ul',
    'ol',
    'li',
    'dl',
    'dd',
    'dt',
    'div',
    'p',
    'span',
    'section',
    'button',
    'select',
    'option',
    'optgroup',
    'datalist',
    'input',
    'textarea',
    'table',
    'caption',
    'colgroup',
    'col',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'td',
    'th',
    'a',
    'b',
    'i',
    'nobr',
    'form',
    'h1',
    'h2',
    'svg',
    'g',
    'path',
    'text',
    'ruby',
    'rt',
    'rp',
    'rb',
    'rtc',
    'hr',
    'br',
    'img',
    'label',
    'em',
    'menu',
    'details',
    'summary',
    'fieldset',
    'header',
    'pre',
    'image',
    'marquee',
    'font',
    'code',
    'address',
    'main',
    'nav',
    'figure',
    'dialog',
    'center',
    'u',
    's',
    'var',
    'sub',
    'strong',
    'article',
    'blockquote',
    'footer',
    'figcaption',
    'area',
    'wbr',
    'source',
    'keygen',
    'frame',
    'head',
    'body',
    'desc',
    'foreignobject',
    'math',
    'object',
    'applet',
    'embed',
    'noscript',
    'template',
    'script',
    'link',
    'meta',
  ];
  const VOID = new Set(['area', 'br', 'col', 'hr', 'img', 'input', 'link', 'source', 'wbr', 'embed', 'keygen', 'meta', 'frame']);

  /** A small deterministic generator (the same trees on every run). */
  function randomFrom(seed: number): () => number {
    let state = seed;
    return () => {
      state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
  }

  function randomTree(random: () => number, depth = 0): string {
    let html = '';
    const count = Math.floor(random() * 3) + (depth === 0 ? 1 : 0);
    for (let index = 0; index < count; index += 1) {
      const name = NAMES[Math.floor(random() * NAMES.length)]!;
      if (VOID.has(name)) html += `<${name}>`;
      else if (name === 'textarea') html += '<textarea>t</textarea>';
      else html += `<${name}>${depth < 5 ? randomTree(random, depth + 1) : ''}</${name}>`;
    }
    return html;
  }

  test('8000 trees of elements in every order: each one accepted stays in its slot, element for element', () => {
    const random = randomFrom(20260523);
    const accepted: string[] = [];
    for (let tree = 0; tree < 8000; tree += 1) {
      const html = randomTree(random);
      // What a page gets is the check's written-out HTML: that is what must read back element for element.
      const checked = checkSectionHtml(html, RULES);
      if (checked.ok) accepted.push(checked.html);
    }
    // Not a test of nothing: many of the trees go through.
    expect(accepted.length).toBeGreaterThan(800);
    // A hundred sections to a page, as many slots; a tree read otherwise shows in its own slot or the ones after it.
    for (let first = 0; first < accepted.length; first += 100) {
      const sections = accepted.slice(first, first + 100);
      const { roots, body } = parseSlots(sections);
      const misread = sections.find((html, index) => roots[index]?.innerHTML !== html);
      expect(misread).toBeUndefined();
      expect(body.children).toHaveLength(sections.length + 1);
      expect(body.lastElementChild?.id).toBe('page-footer');
    }
  });
});
