import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allowingPageScript, pageScriptIn, pageScriptReader, withInlinePageScript } from '../inline-page-script';

const CODE = '(()=>{document.documentElement.dataset.x="1"})();';
const PAGE =
  '<html><head><script defer src="page-script.0123456789.js" data-src="main.abcdef0123.js"></script></head>' +
  '<body><main></main><script type="application/json" id="portico-page-data">{}</script></body></html>';

function dist(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'page-script-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

test('the page script goes last in the body, after the page data it reads, keeping the entry it loads; the CSP allows exactly its bytes', async () => {
  const read = pageScriptReader(dist({ 'page-script.0123456789.js': CODE }));
  expect(pageScriptIn(PAGE)).toBe('page-script.0123456789.js');
  const script = (await read('page-script.0123456789.js'))!;
  const html = withInlinePageScript(PAGE, script, false);
  expect(html).not.toContain('src="page-script');
  expect(html).toMatch(/id="portico-page-data">\{\}<\/script><script data-src="main\.abcdef0123\.js">\(\(\)=>/);
  expect(html.endsWith(`${CODE}</script></body></html>`)).toBe(true);
  const csp = allowingPageScript({ 'Content-Security-Policy': "default-src 'self'; script-src 'self' http://a.example; style-src 'self'" }, script)[
    'Content-Security-Policy'
  ];
  expect(csp).toBe(`default-src 'self'; script-src 'sha256-${createHash('sha256').update(CODE).digest('base64')}' 'self' http://a.example; style-src 'self'`);
});

test('code that holds `</script` is never inlined (it would end the element and let the rest run as markup): the page keeps its script file', async () => {
  const hostile = 'var s="</script><img src=x onerror=alert(1)>";';
  const read = pageScriptReader(dist({ 'page-script.0123456789.js': hostile }));
  expect(await read('page-script.0123456789.js')).toBeUndefined();
});

test('a name that is not a page script of this dist reads nothing: no path leaves the folder', async () => {
  const read = pageScriptReader(dist({ 'page-script.0123456789.js': CODE }));
  expect(await read('../../etc/passwd')).toBeUndefined();
  expect(await read('page-script.9999999999.js')).toBeUndefined();
});

test('the entry the page script loads: the islands’ one when every interactive section has an island script, else the federated one; a host built without it, always the federated one', async () => {
  const read = pageScriptReader(dist({ 'page-script.0123456789.js': CODE }));
  const script = (await read('page-script.0123456789.js'))!;
  const both = PAGE.replace('data-src="main.abcdef0123.js"', 'data-src="main.abcdef0123.js" data-islands="islands.fedcba9876.js"');
  expect(pageScriptIn(both)).toBe('page-script.0123456789.js');
  expect(withInlinePageScript(both, script, true)).toContain('<script data-src="islands.fedcba9876.js">');
  expect(withInlinePageScript(both, script, false)).toContain('<script data-src="main.abcdef0123.js">');
  expect(withInlinePageScript(both, script, false)).not.toContain('islands.');
  expect(withInlinePageScript(PAGE, script, true)).toContain('<script data-src="main.abcdef0123.js">');
});
