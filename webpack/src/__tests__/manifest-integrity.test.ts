import type { Compilation } from 'webpack';
import webpack from 'webpack';
import { sriOf } from '../integrity';
import { addEntryIntegrity, addNodeEntry, createBuildId, type ManifestStats } from '../manifest-integrity';

function fakeCompilation(assets: Record<string, string>): Compilation {
  return {
    compiler: { webpack },
    errors: [],
    getAsset: (name: string) => (name in assets ? { source: new webpack.sources.RawSource(assets[name]!) } : undefined),
  } as unknown as Compilation;
}

const lists = (js: string[], css: string[] = []) => ({ js: { sync: js, async: [] }, css: { sync: css, async: [] } });

const stats = (): ManifestStats => ({
  metaData: {
    remoteEntry: { name: 'remoteEntry.js', path: '' },
    buildInfo: { buildVersion: '1.0.0', buildName: '@portico/remote-contact' },
  },
  exposes: [{ assets: lists(['expose.1.js'], ['expose.1.css']) }],
  shared: [{ assets: lists(['react.2.js']) }],
});

test("the manifest gets remoteEntry.js's hash and a build id derived from it", () => {
  const manifest = stats();
  addEntryIntegrity({ stats: manifest, compilation: fakeCompilation({ 'remoteEntry.js': 'entry code' }) });
  expect(manifest.metaData.remoteEntry.integrity).toBe(sriOf('entry code'));
  expect(manifest.metaData.buildInfo.buildId).toBe(createBuildId(sriOf('entry code')));
  expect(manifest.metaData.buildInfo.buildId).toMatch(/^[0-9a-f]{12}$/);
});

test('every JS and CSS file the manifest lists gets its hash, for the files the host fetches itself', () => {
  const manifest = stats();
  const files = { 'remoteEntry.js': 'e', 'expose.1.js': 'x', 'expose.1.css': 'c', 'react.2.js': 'r' };
  addEntryIntegrity({ stats: manifest, compilation: fakeCompilation(files) });
  expect(manifest.metaData.integrity).toEqual({
    'expose.1.css': sriOf('c'),
    'expose.1.js': sriOf('x'),
    'react.2.js': sriOf('r'),
  });
});

test('the same entry gives the same build id; another entry another', () => {
  expect(createBuildId(sriOf('a'))).toBe(createBuildId(sriOf('a')));
  expect(createBuildId(sriOf('a'))).not.toBe(createBuildId(sriOf('b')));
});

test('a missing file fails the build instead of shipping a manifest without its hash', () => {
  const compilation = fakeCompilation({ 'remoteEntry.js': 'e', 'expose.1.js': 'x', 'expose.1.css': 'c' });
  addEntryIntegrity({ stats: stats(), compilation });
  expect(compilation.errors).toHaveLength(1);
});

test("the manifest names the section's node build with its hash, as Module Federation's ssrRemoteEntry", () => {
  const manifest = stats();
  const compilation = fakeCompilation({});
  addNodeEntry({ stats: manifest, compilation }, { name: 'remoteEntry.0123456789.js', integrity: sriOf('node code') });
  expect(manifest.metaData.ssrRemoteEntry).toEqual({
    name: 'remoteEntry.0123456789.js',
    path: 'server',
    type: 'commonjs-module',
    integrity: sriOf('node code'),
  });
  expect(compilation.errors).toEqual([]);
});

test('a browser build whose node build did not run fails instead of shipping a manifest without it', () => {
  const manifest = stats();
  const compilation = fakeCompilation({});
  addNodeEntry({ stats: manifest, compilation }, {});
  expect(manifest.metaData.ssrRemoteEntry).toBeUndefined();
  expect(compilation.errors).toHaveLength(1);
});
