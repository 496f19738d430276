/**
 * @jest-environment node
 */
import { PAGE_DATA_SLOT } from '@portico/node-sections/protocol';
import { pageDocument, TemplateError } from '../page-document';

// The built index.html, minified as the build writes it, with its markers.
const template =
  '<!doctype html><html lang=en-IN><head><title>Personal loans</title>' +
  '<!--!portico:client-only--><link rel=preload href=/config.json as=fetch crossorigin=anonymous><!--!/portico:client-only-->' +
  '<!--!portico:head--><script defer src=main.0123456789.js></script></head>' +
  '<body><div id=root><!--!portico:root--><header class=site-header></header><!--!/portico:root--></div>' +
  '<!--!portico:client-only--><noscript>This site needs JavaScript.</noscript><!--!/portico:client-only--></body></html>';

test('the rendered shell takes the static one’s place, with its language, title, head tags and the slot for the data', () => {
  const page = pageDocument({ template, lang: 'id', title: 'Kredit <Portico> & Co', head: '<meta name="description" content="x">', root: '<main>$& rendered</main>' });
  expect(page).toContain('<html lang="id">');
  expect(page).toContain('<title>Kredit &lt;Portico&gt; &amp; Co</title>');
  expect(page).toContain('<meta name="description" content="x"><link rel="preload" href="main.0123456789.js" as="script">');
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

test('the entry script is preloaded and started by the after-paint loader, so it cannot hold up the first paint', () => {
  const page = pageDocument({ template, lang: 'en-IN', title: undefined, head: '', root: '<main></main>' });
  expect(page).toContain('<link rel="preload" href="main.0123456789.js" as="script"><script defer src="hydrate-after-paint.js" data-src="main.0123456789.js"></script>');
  expect(page).not.toMatch(/<script defer src=main/);
});

test('a template without the markers is refused, so the client-rendered page is served instead', () => {
  expect(() => pageDocument({ template: '<html><body><div id=root></div></body></html>', lang: 'en-IN', title: undefined, head: '', root: '' })).toThrow(TemplateError);
});
