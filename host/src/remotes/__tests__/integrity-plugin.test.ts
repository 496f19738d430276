import { readManifest } from '@portico/contract/manifest';
import { rememberHashes, remoteIntegrityPlugin } from '../integrity-plugin';

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

test("an expose's stylesheet the runtime fetches itself gets its hash and keeps the runtime's attributes", () => {
  const plugin = hooksOf(remoteIntegrityPlugin());
  loaderChecked();

  const link = plugin.createLink({ url: 'http://localhost:8083/expose.1.css', attrs: { rel: 'stylesheet', type: 'text/css' } }) as HTMLLinkElement;
  expect(link.getAttribute('href')).toBe('http://localhost:8083/expose.1.css');
  expect(link.getAttribute('rel')).toBe('stylesheet');
  expect(link.getAttribute('integrity')).toBe(cssIntegrity);
  expect(link.getAttribute('crossorigin')).toBe('anonymous');
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
  // A file the page has no copy of (and no hash for) is left to Module Federation.
  const other = plugin.createLink({ url: 'http://localhost:8083/expose.2.css', attrs: { rel: 'stylesheet' } }) as HTMLLinkElement | undefined;
  expect(other).toBeUndefined();
  document.head.innerHTML = '';
});

test('any other script is left to Module Federation as it is', () => {
  const plugin = hooksOf(remoteIntegrityPlugin());
  expect(plugin.createScript({ url: 'http://localhost:8082/remoteEntry.js' })).toBeUndefined();
});

test('the plugin leaves fetching manifests to the loader: it answers no fetch hook', () => {
  expect(remoteIntegrityPlugin()).not.toHaveProperty('fetch');
});
