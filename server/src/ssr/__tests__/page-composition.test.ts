import { pageSectionsOf, parsePageData, type PageData } from '@portico/contract/page-data';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import { SECTION_SLOT, SECTION_STYLES_SLOT } from '@portico/node-sections/protocol';
import type { SectionId } from '@portico/contract/sections';
import type { ContactFormTexts } from '@portico/contract/contact-form';
import { composePage, placeParts, withoutSections, type CandidatePart } from '../page-composition';
import { idsIn } from '../section-html';

// Composition is pure: a shell, the sections' checked HTML and the page data
// in, the page out. What a section's HTML may not do to the page around it
// (take its ids, write its slots) is tried here, on the functions alone.

const shellHtml =
  '<html><head><!--portico:section-styles--></head><body><nav id="main-nav"></nav>' +
  '<section id="home"><!--portico:section:home--></section><section id="about"><!--portico:section:about--></section>' +
  '<section id="contact"><!--portico:section:contact--></section><!--portico:page-data--></body></html>';
const shell = {
  html: shellHtml,
  fallbacks: { home: '<p>Loading Home…</p>', about: '<p>Loading About Us…</p>', contact: '<p>Loading Contact us…</p>' },
  styles: {
    home: '<link rel="stylesheet" href="/home.css">',
    about: '<link rel="stylesheet" href="/about.css">',
    contact: '<link rel="stylesheet" href="/contact.css">',
  },
};
const data: PageData = {
  config: {},
  language: 'en',
  sections: pageSectionsOf(BUILT_IN_SECTIONS, 'en'),
  manifests: {},
  rendered: [],
  hydration: {},
  problems: [],
  allowedRemoteOrigins: [],
};

const part = (section: SectionId, html: string): CandidatePart => ({
  section,
  html,
  ids: idsIn(html),
  hash: `hash of ${html}`,
  failure: `the ${section} section is rendered in the browser`,
});

describe('placeParts', () => {
  test("a section whose HTML takes one of the shell's ids is left out, and the log says which", () => {
    const placement = placeParts(idsIn(shellHtml), [part('home', '<p id="main-nav">x</p>'), part('about', '<p>about</p>')]);
    expect(placement.rendered).toEqual(['about']);
    expect(placement.refusals).toEqual(['the home section is rendered in the browser: its HTML takes the id "main-nav", which the page around it uses']);
  });

  test('a section that takes an id of a section placed before it is left out; the first keeps its place', () => {
    const placement = placeParts(new Set(), [
      part('home', '<label for="home-name">Name</label><input id="home-name"/>'),
      part('contact', '<p id="home-name">x</p>'),
    ]);
    expect(placement.rendered).toEqual(['home']);
    expect(placement.refusals).toHaveLength(1);
  });

  test("a form's words stay with their own section's part, and go when that part is left out", () => {
    // Only whose they are matters here: a sentence stands for each section's words.
    const words = (sent: string) => ({ sent }) as unknown as ContactFormTexts;
    const placement = placeParts(new Set(), [
      { ...part('home', '<form id="home-f"></form>'), formTexts: words('home') },
      { ...part('contact', '<p id="home-f">x</p>'), formTexts: words('taken') },
      { ...part('about', '<form id="about-f"></form>'), formTexts: words('about') },
    ]);
    expect([...placement.formTexts]).toEqual([
      ['home', words('home')],
      ['about', words('about')],
    ]);
    expect([...withoutSections(placement, new Set(['home'])).formTexts.keys()]).toEqual(['about']);
  });
});

describe('composePage', () => {
  test('each filled slot gets its HTML, the others their loading line; the head links only the filled sections, the page data names them', () => {
    const placement = placeParts(new Set(), [part('about', '<p>about</p>')]);
    const { html } = composePage({ shell, placement, data: { ...data, rendered: placement.rendered } });
    expect(html).toContain('<section id="about"><p>about</p></section>');
    expect(html).toContain('<section id="home"><p>Loading Home…</p></section>');
    expect(html).toContain('<head><link rel="stylesheet" href="/about.css"></head>');
    expect(parsePageData(/<script type="application\/json" id="portico-page-data">(.*?)<\/script>/.exec(html)?.[1])?.rendered).toEqual(['about']);
    expect(html).not.toContain('<!--portico:');
  });

  test("the first panel's stylesheets go in the head; the others' before their own content, holding back only what follows", () => {
    const withStyleSlots = {
      ...shell,
      html: shellHtml.replace(/<section id="(\w+)">/g, (tag, id: SectionId) => `${tag}${SECTION_STYLES_SLOT(id)}`),
    };
    const placement = placeParts(new Set(), [part('home', '<p>home</p>'), part('about', '<p>about</p>')]);
    const { html } = composePage({ shell: withStyleSlots, placement, data });
    expect(html).toContain('<head><link rel="stylesheet" href="/home.css"></head>');
    expect(html).toContain('<section id="home"><p>home</p></section>');
    expect(html).toContain('<section id="about"><link rel="stylesheet" href="/about.css"><p>about</p></section>');
    // Contact is left to the browser: its loader links its stylesheet, the page does not.
    expect(html).toContain('<section id="contact"><p>Loading Contact us…</p></section>');
    expect(html).not.toContain('<!--portico:');
  });

  test("a section's HTML that writes a slot is not filled: the page is composed in one pass", () => {
    const forged = `<p>${SECTION_SLOT('contact')}${SECTION_STYLES_SLOT('contact')}<!--portico:page-data--><!--portico:section-styles--></p>`;
    const placement = placeParts(new Set(), [part('home', forged)]);
    const { html } = composePage({ shell, placement, data });
    expect(html).toContain(`<section id="home">${forged}</section>`);
    expect(html.match(/id="portico-page-data"/g)).toHaveLength(1);
    expect(html).toContain('<section id="contact"><p>Loading Contact us…</p></section>');
  });

  test('the page script is inlined where the shell names it, and said to be; one the shell does not name is not', () => {
    const tag = '<script defer src="page-script.0123456789.js" data-src="main.js"></script>';
    const script = { file: 'page-script.0123456789.js', code: 'void 0', source: "'sha256-x'" };
    const named = composePage({ shell: { ...shell, html: shellHtml.replace('</body>', `${tag}</body>`) }, placement: placeParts(new Set(), []), data, script });
    expect(named.html).toContain('<script data-src="main.js">void 0</script></body>');
    expect(named.script).toBe(script);
    const unnamed = composePage({ shell, placement: placeParts(new Set(), []), data, script });
    expect(unnamed.script).toBeUndefined();
  });
});
