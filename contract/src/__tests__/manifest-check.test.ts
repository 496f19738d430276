import { readManifest, type Manifest } from '../manifest';
import { checkManifest } from '../manifest-check';

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

/** The manifest as the page reads it (the reader's own tests are manifest.test.ts). */
function read(value: unknown): Manifest {
  const reading = readManifest(JSON.stringify(value), 'https://cdn.example/contact/v2/mf-manifest.json');
  if ('problem' in reading) throw new Error(reading.problem);
  return reading.manifest;
}

test('a manifest that exposes the section and accepts the page’s shared versions may load', () => {
  expect(checkManifest(read(manifest()), { expose: './section', pageShares })).toBeUndefined();
});

test('a remote that needs another React is refused, naming both versions', () => {
  expect(checkManifest(read(manifest({ react: '^17.0.0' })), { expose: './section', pageShares })).toBe('needs react ^17.0.0 but the page shares 19.3.1');
});

test('a range the page satisfies another way is accepted', () => {
  expect(checkManifest(read(manifest({ react: '>=18 <20' })), { expose: './section', pageShares })).toBeUndefined();
});

test('a shared module the page does not share is the remote’s own business', () => {
  const withLodash = manifest();
  withLodash.shared.push({ ...withLodash.shared[0]!, name: 'lodash', requiredVersion: '^4.0.0' });
  expect(checkManifest(read(withLodash), { expose: './section', pageShares })).toBeUndefined();
});

test('a remote whose expose was renamed is refused, naming what it exposes', () => {
  expect(checkManifest(read(manifest({ expose: 'form' })), { expose: './section', pageShares })).toBe('does not expose ./section (it exposes ./form)');
});
