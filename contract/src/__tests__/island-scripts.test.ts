import type { Hydration } from '../hydration';
import { pageLoadsIslandScripts } from '../island-scripts';

const SRI = `sha384-${'A'.repeat(64)}`;
const URL_OF = { home: 'http://localhost:8081/mf-manifest.json', contact: 'http://localhost:8083/mf-manifest.json' };

const manifest = (island?: object) =>
  JSON.stringify({
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', integrity: SRI }, publicPath: 'auto', ...(island ? { island } : {}) },
    shared: [],
    exposes: [{ name: 'section', path: './section' }],
  });

const page = (manifests: Record<string, string | undefined>, hydration: Record<string, Hydration> = {}) => ({
  config: { remotes: URL_OF },
  sections: [
    { id: 'home', label: 'Home' },
    { id: 'contact', label: 'Contact us' },
  ],
  manifests,
  hydration: { home: { mode: 'static' } as Hydration, ...hydration },
});

test('every section that hydrates has an island script in its inlined manifest: the page loads them through the islands’ entry', () => {
  expect(pageLoadsIslandScripts(page({ contact: manifest({ name: 'island.0a.js', integrity: SRI }) }))).toBe(true);
});

test.each([
  ['built before island scripts', { contact: manifest() }],
  ['whose manifest the server could not inline', { contact: undefined }],
  ['whose island has no hash', { contact: manifest({ name: 'island.0a.js' }) }],
])('an interactive section %s: the page loads every section through Module Federation, as before', (_case, manifests) => {
  expect(pageLoadsIslandScripts(page(manifests))).toBe(false);
});

test('a static section needs no island script: it never loads code', () => {
  expect(pageLoadsIslandScripts(page({ contact: manifest({ name: 'island.0a.js', integrity: SRI }) }, {}))).toBe(true);
  expect(pageLoadsIslandScripts({ ...page({}), sections: [{ id: 'home', label: 'Home' }] })).toBe(true);
});
