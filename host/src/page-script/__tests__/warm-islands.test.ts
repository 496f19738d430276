import type { PageData } from '@portico/contract/page-data';
import type { IslandPlan } from '../island-triggers';
import { warmIslands } from '../warm-islands';

// What the page fetches ahead of a tap (issue 50): the host's list from its
// build, and each island's files from the manifest the server inlined, in
// the page's language; nothing for a section loaded from an override.

const CONTACT = 'http://localhost:8083/mf-manifest.json';

const contactManifest = JSON.stringify({
  name: 'portico_contact',
  metaData: { name: 'portico_contact', remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
  shared: [{ name: 'react', singleton: true, assets: { js: { sync: ['696.aa.js'], async: [] } } }],
  exposes: [
    {
      name: 'section',
      path: './section',
      assets: {
        js: {
          sync: ['__federation_expose_section.1a.js'],
          async: ['499.2b.js', 'contact-text-en.3c.js', 'contact-text-id.4d.js', 'text-en.5e.js', 'text-id.6f.js'],
        },
        css: { sync: [], async: [] },
      },
    },
  ],
});

/** Contact's island as the page script plans it: interactive, rendered by the server. */
const CONTACT_PLAN: IslandPlan = { section: 'contact', hydration: { mode: 'interactive', when: ['selected'] }, rendered: true };

const ISLAND_FILES = { files: ['main.0a.js', '470.0b.js'], packs: { en: ['text-en.0c.js'], id: ['text-id.0d.js'] } };

function pageData(overrides: Partial<PageData> = {}): PageData {
  return {
    config: { remotes: { contact: CONTACT } },
    language: 'en',
    sections: [],
    manifests: { contact: contactManifest },
    rendered: ['contact'],
    hydration: {},
    problems: [],
    allowedRemoteOrigins: ['http://localhost:9999'],
    ...overrides,
  } as PageData;
}

/** A fetch (jsdom has none) whose answer's body is `json`, or fails to read with `error`. */
const answering = (json: unknown, error?: Error) =>
  jest.fn(async () => ({ ok: true, json: async () => (error ? Promise.reject(error) : json) })) as unknown as typeof fetch;

const prefetched = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map((link) => link.href);

beforeEach(() => {
  document.head.innerHTML = '';
  global.fetch = answering(ISLAND_FILES);
});

test('the host’s scripts and this language’s pack, then Contact’s own chunk and texts (not its no-cache remoteEntry.js): not the shared modules’ copies nor the other language', async () => {
  await warmIslands(document, pageData(), [CONTACT_PLAN], '/main.0a.js');
  expect(prefetched()).toEqual([
    'http://localhost/main.0a.js',
    'http://localhost/470.0b.js',
    'http://localhost/text-en.0c.js',
    'http://localhost:8083/__federation_expose_section.1a.js',
    'http://localhost:8083/contact-text-en.3c.js',
  ]);
  // Asked for with CORS, as the loaders ask for the same files: the cached answer serves them.
  expect([...document.querySelectorAll('link[rel="prefetch"]')].every((link) => link.getAttribute('crossorigin') === 'anonymous')).toBe(true);
});

test('the host’s entry already on its way is not asked for twice', async () => {
  await warmIslands(document, pageData(), [CONTACT_PLAN], '/main.0a.js', '/main.0a.js');
  expect(prefetched()).not.toContain('http://localhost/main.0a.js');
  expect(prefetched()).toContain('http://localhost/470.0b.js');
});

test('a section loaded from an override gets nothing fetched ahead from the inlined manifest; an unreadable host list, only the entry', async () => {
  window.history.replaceState(null, '', `/?remote.contact=${encodeURIComponent('http://localhost:9999/mf-manifest.json')}`);
  global.fetch = answering(undefined, new SyntaxError('not JSON'));
  try {
    await warmIslands(document, pageData(), [CONTACT_PLAN], '/main.0a.js');
    expect(prefetched()).toEqual(['http://localhost/main.0a.js']);
  } finally {
    window.history.replaceState(null, '', '/');
  }
});

test('islands that never load code here fetch nothing ahead: a static one, and one the server did not render (the browser renders it at once)', async () => {
  const plans: IslandPlan[] = [
    { section: 'home', hydration: { mode: 'static' }, rendered: true },
    { ...CONTACT_PLAN, rendered: false },
  ];
  await warmIslands(document, pageData({ rendered: ['home'] }), plans, '/main.0a.js');
  expect(prefetched()).toEqual([]);
  expect(global.fetch).not.toHaveBeenCalled();
});

describe('through the islands’ entry', () => {
  const ISLAND_SRI = `sha384-${'C'.repeat(64)}`;
  const withIsland = (() => {
    const manifest = JSON.parse(contactManifest) as { metaData: Record<string, unknown> };
    manifest.metaData.island = { name: 'island.7a.js', integrity: ISLAND_SRI, chunks: ['island-contact-text-en.8b.js', 'island-contact-text-id.9c.js'] };
    return JSON.stringify(manifest);
  })();
  const ISLANDS_LIST = { files: ['islands.0e.js', 'islands-text-en.0f.js'], packs: {}, islandScripts: true };

  test('each section’s island script and its texts in this language, not its container’s chunks', async () => {
    global.fetch = answering(ISLANDS_LIST);
    await warmIslands(document, pageData({ manifests: { contact: withIsland } }), [CONTACT_PLAN], '/islands.0e.js');
    expect(prefetched()).toEqual([
      'http://localhost/islands.0e.js',
      'http://localhost/islands-text-en.0f.js',
      'http://localhost:8083/island.7a.js',
      'http://localhost:8083/island-contact-text-en.8b.js',
    ]);
  });

  test('a list that is another entry’s (the page loads the federated one) is not followed: the container’s chunks, as with no list', async () => {
    global.fetch = answering(ISLANDS_LIST);
    await warmIslands(document, pageData({ manifests: { contact: withIsland } }), [CONTACT_PLAN], '/main.0a.js');
    expect(prefetched()).toEqual([
      'http://localhost/main.0a.js',
      'http://localhost:8083/__federation_expose_section.1a.js',
      'http://localhost:8083/contact-text-en.3c.js',
      // With no host list, the remote's copy of the host's pack is not told apart.
      'http://localhost:8083/text-en.5e.js',
    ]);
  });
});
