import { readManifest } from '@portico/contract/manifest';
import { pageStylesheets } from '@portico/contract/section-styles';
import { linkStylesheets, rememberHashes, remoteIntegrityPlugin } from '../integrity-plugin';

const integrity = `sha384-${'Q'.repeat(64)}`;
const manifestUrl = 'http://localhost:8083/mf-manifest.json';
const cssIntegrity = `sha384-${'C'.repeat(64)}`;
const manifestJson = {
  metaData: {
    publicPath: 'auto',
    remoteEntry: { name: 'remoteEntry.js', path: '', integrity },
    integrity: { 'expose.1.css': cssIntegrity },
  },
  exposes: [],
  shared: [],
};

/** What the loader does with a manifest it has read and checked. */
function loaderChecked(): void {
  const reading = readManifest(JSON.stringify(manifestJson), manifestUrl);
  if ('problem' in reading) throw new Error(reading.problem);
  rememberHashes(reading.manifest.hashes);
}

type Hooks = Required<ReturnType<typeof remoteIntegrityPlugin>>;
const hooksOf = (plugin: ReturnType<typeof remoteIntegrityPlugin>) => plugin as Hooks;

test('a remoteEntry.js whose manifest gave a hash is loaded with integrity and CORS', () => {
  const plugin = hooksOf(remoteIntegrityPlugin());
  loaderChecked();

  const script = plugin.createScript({ url: 'http://localhost:8083/remoteEntry.js' }) as HTMLScriptElement;
  expect(script).toBeInstanceOf(HTMLScriptElement);
  expect(script.getAttribute('integrity')).toBe(integrity);
  expect(script.getAttribute('crossorigin')).toBe('anonymous');
  expect(script.src).toBe('http://localhost:8083/remoteEntry.js');
});

test("an expose's stylesheet the page has no scoped copy of is never linked from the section's origin: the runtime gets a link that fetches nothing", () => {
  const plugin = hooksOf(remoteIntegrityPlugin());
  loaderChecked();

  // Before issue 46's change this was the section's own file, with its hash: applied as published, unscoped.
  const link = plugin.createLink({ url: 'http://localhost:8083/expose.1.css', attrs: { rel: 'stylesheet', type: 'text/css' } }) as HTMLLinkElement;
  expect(link).toBeInstanceOf(HTMLLinkElement);
  expect(link.hasAttribute('href')).toBe(false);
  expect(link.getAttribute('rel')).toBe('stylesheet');
  const preload = plugin.createLink({ url: 'http://localhost:8083/expose.1.css', attrs: { rel: 'preload', as: 'style' } }) as HTMLLinkElement;
  expect(preload.hasAttribute('href')).toBe(false);
});

test("a stylesheet the server-rendered page already links from its own origin is linked from there again, not fetched from the section's", () => {
  const plugin = hooksOf(remoteIntegrityPlugin());
  loaderChecked();
  document.head.innerHTML =
    '<link rel="stylesheet" href="/section-styles/sha384-C.css" crossorigin="anonymous" integrity="sha384-C" data-href="http://localhost:8083/expose.1.css">';

  const link = plugin.createLink({ url: 'http://localhost:8083/expose.1.css', attrs: { rel: 'stylesheet', type: 'text/css' } }) as HTMLLinkElement;
  expect(link.getAttribute('href')).toBe('/section-styles/sha384-C.css');
  expect(link.getAttribute('integrity')).toBe('sha384-C');
  expect(link.getAttribute('rel')).toBe('stylesheet');
  // A copy whose file no manifest gave a hash for is still the page's copy, with the runtime's attributes.
  document.head.innerHTML = '<link rel="stylesheet" href="/section-styles/sha384-D.css" data-href="http://localhost:8083/unhashed.css">';
  const unhashed = plugin.createLink({ url: 'http://localhost:8083/unhashed.css', attrs: { rel: 'stylesheet', type: 'text/css' } }) as HTMLLinkElement;
  expect(unhashed.getAttribute('href')).toBe('/section-styles/sha384-D.css');
  expect(unhashed.getAttribute('rel')).toBe('stylesheet');
  // A file the page has no copy of (and no hash for) is not fetched at all.
  const other = plugin.createLink({ url: 'http://localhost:8083/expose.2.css', attrs: { rel: 'stylesheet' } }) as HTMLLinkElement;
  expect(other.hasAttribute('href')).toBe(false);
  document.head.innerHTML = '';
});

test('any other script is left to Module Federation as it is', () => {
  const plugin = hooksOf(remoteIntegrityPlugin());
  expect(plugin.createScript({ url: 'http://localhost:8082/remoteEntry.js' })).toBeUndefined();
});

test('the plugin leaves fetching manifests to the loader: it answers no fetch hook', () => {
  expect(remoteIntegrityPlugin()).not.toHaveProperty('fetch');
});

test("a section's stylesheets are linked from the page's origin, scoped to its slot, before its code loads; never from the section's origin", () => {
  const reading = readManifest(
    JSON.stringify({ ...manifestJson, exposes: [{ path: './section', assets: { css: { sync: ['expose.1.css', 'unhashed.css'], async: [] } } }] }),
    manifestUrl,
  );
  if ('problem' in reading) throw new Error(reading.problem);
  const { manifest } = reading;
  linkStylesheets(pageStylesheets('contact', manifest.stylesheets['./section'] ?? [], manifest.hashes));

  const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
  // One link: the file with a hash, as the front server scopes it (a file with none is not linked: nothing could check it).
  expect(links.map((link) => new URL(link.href).pathname + new URL(link.href).search)).toEqual([
    `/section-styles/of/contact?href=${encodeURIComponent('http://localhost:8083/expose.1.css')}&integrity=${encodeURIComponent(cssIntegrity)}`,
  ]);
  expect(links[0]!.getAttribute('data-href')).toBe('http://localhost:8083/expose.1.css');

  // Module Federation, asking for the same file, gets the page's link again; a second load (Try again) adds none.
  const plugin = hooksOf(remoteIntegrityPlugin());
  const link = plugin.createLink({ url: 'http://localhost:8083/expose.1.css', attrs: { rel: 'stylesheet', type: 'text/css' } }) as HTMLLinkElement;
  expect(link.getAttribute('href')).toBe(links[0]!.getAttribute('href'));
  linkStylesheets(pageStylesheets('contact', manifest.stylesheets['./section'] ?? [], manifest.hashes));
  expect(document.head.querySelectorAll('link')).toHaveLength(1);
  document.head.innerHTML = '';
});
