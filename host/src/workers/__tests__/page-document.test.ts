/**
 * @jest-environment node
 */
import { PAGE_DATA_SLOT } from '@portico/node-sections/protocol';
import { pageDocument, TemplateError } from '../page-document';

// The built index.html, minified as the build writes it, with its markers.
const template =
  '<!doctype html><html lang=en-IN><head><title>Personal loans</title>' +
  '<!--!portico:client-only--><link rel=preload href=/config.json as=fetch crossorigin=anonymous><!--!/portico:client-only-->' +
  '<!--!portico:page-script page-script.abcdef0123.js--><!--!portico:head--><script defer src=main.0123456789.js></script></head>' +
  '<body><div id=root><!--!portico:root--><header class=site-header></header><!--!/portico:root--></div>' +
  '<!--!portico:client-only--><noscript>This site needs JavaScript.</noscript><!--!/portico:client-only--></body></html>';

test('the rendered shell takes the static one’s place, with its language, title, head tags and the slot for the data', () => {
  const page = pageDocument({
    template,
    lang: 'id',
    title: 'Kredit <Portico> & Co',
    head: '<meta name="description" content="x">',
    root: '<main>$& rendered</main>',
  });
  expect(page).toContain('<html lang="id">');
  expect(page).toContain('<title>Kredit &lt;Portico&gt; &amp; Co</title>');
  expect(page).toContain('<meta name="description" content="x"><script defer src="page-script.abcdef0123.js" data-src="main.0123456789.js"></script>');
  expect(page).toContain('<div id=root><main>$& rendered</main></div>');
  expect(page).toContain(`${PAGE_DATA_SLOT}</body>`);
  expect(page).not.toContain('config.json');
  expect(page).not.toContain('noscript');
  expect(page).not.toContain('site-header');
});

test('section stylesheets come last in the head, after the shell’s own, as the browser would add them', () => {
  const withCss = template.replace('</head>', '<link href=main.0123456789.css rel=stylesheet></head>');
  const link = '<link rel="stylesheet" href="https://home.example/section.css" crossorigin="anonymous" />';
  const page = pageDocument({ template: withCss, lang: 'en-IN', title: undefined, head: '', styles: link, root: '' });
  expect(page).toContain(`<link href=main.0123456789.css rel=stylesheet>${link}</head>`);
});

test('the page script is the page’s one script; the entry script is neither run nor preloaded, only named for the page script to load when an island needs it', () => {
  const page = pageDocument({ template, lang: 'en-IN', title: undefined, head: '', root: '<main></main>' });
  expect(page.match(/<script\b[^>]*>/g)).toEqual(['<script defer src="page-script.abcdef0123.js" data-src="main.0123456789.js">']);
  expect(page).not.toContain('preload');
  expect(page).not.toContain('portico:page-script');
});

test('a template that names no page script (a development build) is refused, so the client-rendered page is served instead', () => {
  expect(() =>
    pageDocument({ template: template.replace(/<!--!portico:page-script [^>]*-->/, ''), lang: 'en-IN', title: undefined, head: '', root: '' }),
  ).toThrow(/names no page script/);
});

test('a template without the markers is refused, so the client-rendered page is served instead', () => {
  expect(() => pageDocument({ template: '<html><body><div id=root></div></body></html>', lang: 'en-IN', title: undefined, head: '', root: '' })).toThrow(
    TemplateError,
  );
});
