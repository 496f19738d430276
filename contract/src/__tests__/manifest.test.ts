import { MANIFEST_MAX_BYTES, readManifest, type Manifest, type NodeEntry } from '../manifest';

const SRI = `sha384-${'A'.repeat(64)}`;
const CHUNK_SRI = `sha384-${'B'.repeat(64)}`;

/** The parts of a real mf-manifest.json (remote-contact's build) that matter here. */
function manifest(metaData: Record<string, unknown> = {}) {
  const assets = (sync: string[], async: string[] = [], css: string[] = []) => ({ js: { sync, async }, css: { sync: css, async: [] as string[] } });
  return {
    id: 'portico_contact',
    name: 'portico_contact',
    metaData: {
      name: 'portico_contact',
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global', integrity: SRI },
      ssrRemoteEntry: { name: 'remoteEntry.js', path: 'server', type: 'commonjs-module', integrity: SRI },
      integrity: { '499.js': CHUNK_SRI },
      publicPath: 'auto',
      ...metaData,
    },
    shared: [
      { name: '@portico/shared-config', version: '1.0.0', singleton: true, requiredVersion: '^1.0.0', assets: assets(['320.js']) },
      { name: 'react', version: '19.3.1', singleton: true, requiredVersion: '^19.2.0', assets: assets(['696.js']) },
      { name: 'lodash', version: '4.0.0', requiredVersion: '', assets: assets([]) },
    ],
    remotes: [],
    exposes: [
      { id: 'portico_contact:section', name: 'section', path: './section', assets: assets(['__federation_expose_section.js'], ['499.js'], ['section.css']) },
    ],
  };
}

const AT = 'https://cdn.example/contact/v2/mf-manifest.json?v=2';

function read(value: unknown, url = AT): Manifest {
  const reading = readManifest(JSON.stringify(value), url);
  if ('problem' in reading) throw new Error(reading.problem);
  return reading.manifest;
}

const problem = (source: string | Uint8Array, url = AT) => {
  const reading = readManifest(source, url);
  return 'problem' in reading ? reading.problem : undefined;
};

test('publicPath "auto": every file lies beside the manifest (its sub-path, not its query), made absolute once', () => {
  const read1 = read(manifest());
  expect(read1.entry).toEqual({ url: 'https://cdn.example/contact/v2/remoteEntry.js', integrity: SRI });
  expect(read1.scripts).toEqual([
    'https://cdn.example/contact/v2/remoteEntry.js',
    'https://cdn.example/contact/v2/__federation_expose_section.js',
    'https://cdn.example/contact/v2/499.js',
    'https://cdn.example/contact/v2/320.js',
    'https://cdn.example/contact/v2/696.js',
  ]);
  expect(read1.hashes).toEqual(
    new Map([
      ['https://cdn.example/contact/v2/499.js', CHUNK_SRI],
      ['https://cdn.example/contact/v2/remoteEntry.js', SRI],
    ]),
  );
  expect(read1.stylesheets).toEqual({ './section': ['https://cdn.example/contact/v2/section.css'] });
  // What a page fetches ahead for the section (issue 50): its own chunks, and apart those it loads on demand.
  expect(read1.exposedScripts).toEqual({ './section': ['https://cdn.example/contact/v2/__federation_expose_section.js'] });
  expect(read1.exposedLazyScripts).toEqual({ './section': ['https://cdn.example/contact/v2/499.js'] });
  expect(read1.nodeEntry).toEqual({ url: 'https://cdn.example/contact/v2/server/remoteEntry.js', integrity: SRI });
  expect(read1.exposes).toEqual(['./section']);
  expect(read1.shared).toEqual([
    { name: '@portico/shared-config', requiredVersion: '^1.0.0', singleton: true },
    { name: 'react', requiredVersion: '^19.2.0', singleton: true },
    { name: 'lodash', requiredVersion: undefined, singleton: false },
  ]);
});

test('an absolute publicPath and an entry path: the files lie under them', () => {
  const published = read(manifest({ publicPath: 'https://static.example/contact/', remoteEntry: { name: 'remoteEntry.js', path: 'entry' } }));
  expect(published.entry.url).toBe('https://static.example/contact/entry/remoteEntry.js');
  expect(published.entry.integrity).toBeUndefined();
  expect(published.stylesheets['./section']).toEqual(['https://static.example/contact/section.css']);
});

test('a relative publicPath is refused: the browser would resolve it against the page, a server against nothing', () => {
  expect(problem(JSON.stringify(manifest({ publicPath: '/contact/' })))).toBe(
    'gives a relative publicPath ("/contact/"): it must be "auto" or an absolute http(s) URL',
  );
  expect(problem(JSON.stringify(manifest({ publicPath: 'javascript:alert(1)' })))).toBe(
    'gives a publicPath that is not an http(s) URL ("javascript:alert(1)")',
  );
});

test.each([
  ['null', 'is not a Module Federation manifest (not a JSON object)'],
  ['[1,2]', 'is not a Module Federation manifest (not a JSON object)'],
  ['{"name":"contact","version":"1.0.0"}', 'is not a Module Federation manifest (no metaData, exposes, shared)'],
  [JSON.stringify({ ...manifest(), exposes: {} }), 'is not a Module Federation manifest (no exposes)'],
  ['{"metaData":', 'is not JSON'],
])('%s is no manifest', (text, reason) => {
  expect(problem(text)).toBe(reason);
});

test('bytes over the cap are refused before they are parsed; the bytes and the text of a manifest read alike', () => {
  expect(problem(new Uint8Array(MANIFEST_MAX_BYTES + 1))).toBe('is over 1 MB, too large to be a manifest');
  // Counted in UTF-8 bytes, not characters: 400,000 three-byte characters are 1.2 MB.
  expect(problem(JSON.stringify({ ...manifest(), padding: 'ह'.repeat(400_000) }))).toBe('is over 1 MB, too large to be a manifest');
  expect(problem(JSON.stringify({ ...manifest(), padding: '😀'.repeat(200_000) }))).toBe(undefined);
  const text = JSON.stringify(manifest());
  expect(readManifest(new TextEncoder().encode(text), AT)).toEqual(readManifest(text, AT));
});

test('a manifest at a URL that is not absolute http(s) is refused', () => {
  expect(problem('{}', 'mf-manifest.json')).toBe('is not at an absolute URL (mf-manifest.json)');
  expect(problem('{}', 'file:///etc/mf-manifest.json')).toBe('is not at an http(s) URL (file:///etc/mf-manifest.json)');
});

describe('the node build', () => {
  const nodeEntry = (meta: Record<string, unknown>) => read(manifest(meta)).nodeEntry;

  test('on another origin than the manifest, by its path or by publicPath, is refused as code from elsewhere', () => {
    expect(nodeEntry({ ssrRemoteEntry: { ...manifest().metaData.ssrRemoteEntry, path: 'https://evil.example/server' } })).toEqual({
      refusal: 'origin',
      problem: `${new URL(AT).href}: the node build https://evil.example/server/remoteEntry.js is not on the manifest's origin https://cdn.example`,
    });
    expect((nodeEntry({ publicPath: 'https://static.example/' }) as { refusal: string }).refusal).toBe('origin');
  });

  test.each([
    [{ ssrRemoteEntry: undefined }, 'names no node build (metaData.ssrRemoteEntry)'],
    [{ ssrRemoteEntry: { name: 'remoteEntry.js', type: 'module', integrity: SRI } }, 'the node build is of type module, not commonjs-module'],
    [{ ssrRemoteEntry: { name: 'remoteEntry.js', type: 'commonjs-module', integrity: 'md5-x' } }, 'the node build has no sha256/384/512 integrity value'],
  ])('%p: refused, naming why', (meta, why) => {
    const found = nodeEntry(meta);
    expect(found).toMatchObject({ refusal: 'manifest' });
    expect((found as { problem: string }).problem).toContain(why);
    expect((found as Partial<NodeEntry>).url).toBeUndefined();
  });
});

test('a section’s hydration is read from metaData.hydration: the default when absent, refused in words when the page cannot follow it', () => {
  expect(read(manifest()).hydration).toEqual({ mode: 'interactive', when: ['load'] });
  expect(read(manifest({ hydration: { mode: 'static' } })).hydration).toEqual({ mode: 'static' });
  expect(problem(JSON.stringify(manifest({ hydration: { mode: 'interactive', when: ['load', 'onerror=alert(1)'] } })))).toMatch(
    /metaData.hydration the page cannot follow: hydration.when has "onerror=alert\(1\)"/,
  );
  expect(problem(JSON.stringify(manifest({ hydration: 'static' })))).toMatch(/hydration is not an object/);
});

describe('the island script', () => {
  const ISLAND_SRI = `sha384-${'C'.repeat(64)}`;

  test('is read with its hash and chunks beside the manifest, listed among its scripts and hashes for the publish checks', () => {
    const island = read(manifest({ island: { name: 'island.0a.js', integrity: ISLAND_SRI, chunks: ['island-text-en.0b.js'] } })).island;
    expect(island).toEqual({
      url: 'https://cdn.example/contact/v2/island.0a.js',
      integrity: ISLAND_SRI,
      chunks: ['https://cdn.example/contact/v2/island-text-en.0b.js'],
    });
    const read1 = read(manifest({ island: { name: 'island.0a.js', integrity: ISLAND_SRI, chunks: ['island-text-en.0b.js'] } }));
    expect(read1.scripts).toEqual(expect.arrayContaining([island!.url, ...island!.chunks]));
    expect(read1.hashes.get(island!.url)).toBe(ISLAND_SRI);
  });

  test.each([
    ['no island', {}],
    ['no hash', { island: { name: 'island.0a.js' } }],
    ['a name on another origin', { island: { name: 'https://evil.example/island.js', integrity: ISLAND_SRI } }],
    ['a chunk on another origin', { island: { name: 'island.0a.js', integrity: ISLAND_SRI, chunks: ['https://evil.example/x.js'] } }],
  ])('%s: the build has none, and the page loads it through its container', (_case, metaData) => {
    expect(read(manifest(metaData)).island).toBeUndefined();
  });
});
