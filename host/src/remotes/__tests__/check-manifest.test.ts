import { checkManifest, exposeStylesheets, filesOfManifest } from '../check-manifest';

const pageShares = { react: '19.3.1', 'react-dom': '19.3.1', '@portico/shared-config': '1.0.0' };

/** The parts of a real mf-manifest.json (remote-contact's build) that matter here. */
function manifest({ react = '^19.2.0', expose = 'section' } = {}) {
  const assets = (sync: string[], async: string[] = []) => ({ js: { sync, async }, css: { sync: [] as string[], async: [] as string[] } });
  return {
    id: 'portico_contact',
    name: 'portico_contact',
    metaData: {
      name: 'portico_contact',
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      publicPath: 'auto',
    },
    shared: [
      { name: '@portico/shared-config', version: '1.0.0', singleton: true, requiredVersion: '^1.0.0', assets: assets(['320.js']) },
      { name: 'react-dom', version: '19.3.1', singleton: true, requiredVersion: '^19.2.0', assets: assets(['325.js']) },
      { name: 'react', version: react.replace(/^\D+/, ''), singleton: true, requiredVersion: react, assets: assets(['696.js']) },
    ],
    remotes: [],
    exposes: [{ id: `portico_contact:${expose}`, name: expose, path: `./${expose}`, assets: assets(['__federation_expose_section.js'], ['499.js']) }],
  };
}

test('a manifest that exposes the section and accepts the page’s shared versions may load', () => {
  expect(checkManifest(manifest(), { expose: './section', pageShares })).toBeUndefined();
});

test('a remote that needs another React is refused, naming both versions', () => {
  expect(checkManifest(manifest({ react: '^17.0.0' }), { expose: './section', pageShares })).toBe(
    'needs react ^17.0.0 but the page shares 19.3.1',
  );
});

test('a range the page satisfies another way is accepted', () => {
  expect(checkManifest(manifest({ react: '>=18 <20' }), { expose: './section', pageShares })).toBeUndefined();
});

test('a shared module the page does not share is the remote’s own business', () => {
  const withLodash = manifest();
  withLodash.shared.push({ ...withLodash.shared[0]!, name: 'lodash', requiredVersion: '^4.0.0' });
  expect(checkManifest(withLodash, { expose: './section', pageShares })).toBeUndefined();
});

test('a remote whose expose was renamed is refused, naming what it exposes', () => {
  expect(checkManifest(manifest({ expose: 'form' }), { expose: './section', pageShares })).toBe(
    'does not expose ./section (it exposes ./form)',
  );
});

test.each([
  [null, 'is not a Module Federation manifest (not a JSON object)'],
  [[1, 2], 'is not a Module Federation manifest (not a JSON object)'],
  [{ name: 'contact', version: '1.0.0' }, 'is not a Module Federation manifest (no metaData, exposes, shared)'],
  [{ ...manifest(), exposes: {} }, 'is not a Module Federation manifest (no exposes)'],
])('%p is not a manifest', (raw, reason) => {
  expect(checkManifest(raw, { expose: './section', pageShares })).toBe(reason);
});

test('the files of a manifest with publicPath auto lie beside it', () => {
  expect(filesOfManifest(manifest(), 'https://cdn.example/contact/v2/mf-manifest.json')).toEqual({
    entry: 'https://cdn.example/contact/v2/remoteEntry.js',
    scripts: [
      'https://cdn.example/contact/v2/remoteEntry.js',
      'https://cdn.example/contact/v2/__federation_expose_section.js',
      'https://cdn.example/contact/v2/499.js',
      'https://cdn.example/contact/v2/320.js',
      'https://cdn.example/contact/v2/325.js',
      'https://cdn.example/contact/v2/696.js',
    ],
  });
});

test('the files of a manifest with a publicPath and an entry path lie under them', () => {
  const published = manifest();
  published.metaData.publicPath = 'https://static.example/contact/';
  published.metaData.remoteEntry.path = 'entry';
  expect(filesOfManifest(published, 'https://cdn.example/mf-manifest.json').entry).toBe(
    'https://static.example/contact/entry/remoteEntry.js',
  );
});

test('the section’s stylesheets, beside the manifest or under its public path, and none for another expose', () => {
  const styled = manifest();
  styled.exposes[0]!.assets.css.sync = ['__federation_expose_section.css'];
  expect(exposeStylesheets(styled, 'https://cdn.example/contact/v2/mf-manifest.json', './section')).toEqual([
    'https://cdn.example/contact/v2/__federation_expose_section.css',
  ]);
  const underPublicPath = { ...styled, metaData: { ...styled.metaData, publicPath: 'https://static.example/contact/' } };
  expect(exposeStylesheets(underPublicPath, 'https://cdn.example/contact/v2/mf-manifest.json', './section')).toEqual([
    'https://static.example/contact/__federation_expose_section.css',
  ]);
  expect(exposeStylesheets(styled, 'https://cdn.example/contact/v2/mf-manifest.json', './other')).toEqual([]);
  expect(exposeStylesheets({ exposes: 'not a list' }, 'https://cdn.example/mf-manifest.json', './section')).toEqual([]);
});
