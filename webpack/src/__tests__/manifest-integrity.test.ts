import type { Compilation } from 'webpack';
import webpack from 'webpack';
import { sriOf } from '../integrity';
import { addEntryIntegrity, createBuildId, type ManifestStats } from '../manifest-integrity';

function fakeCompilation(assets: Record<string, string>): Compilation {
  return {
    compiler: { webpack },
    errors: [],
    getAsset: (name: string) => (name in assets ? { source: new webpack.sources.RawSource(assets[name]!) } : undefined),
  } as unknown as Compilation;
}

const stats = (): ManifestStats => ({
  metaData: {
    remoteEntry: { name: 'remoteEntry.js', path: '' },
    buildInfo: { buildVersion: '1.0.0', buildName: '@portico/remote-contact' },
  },
});

test("the manifest gets remoteEntry.js's hash and a build id derived from it", () => {
  const manifest = stats();
  addEntryIntegrity({ stats: manifest, compilation: fakeCompilation({ 'remoteEntry.js': 'entry code' }) });
  expect(manifest.metaData.remoteEntry.integrity).toBe(sriOf('entry code'));
  expect(manifest.metaData.buildInfo.buildId).toBe(createBuildId(sriOf('entry code')));
  expect(manifest.metaData.buildInfo.buildId).toMatch(/^[0-9a-f]{12}$/);
});

test('the same entry gives the same build id; another entry another', () => {
  expect(createBuildId(sriOf('a'))).toBe(createBuildId(sriOf('a')));
  expect(createBuildId(sriOf('a'))).not.toBe(createBuildId(sriOf('b')));
});

test('a missing entry fails the build instead of shipping a manifest without its hash', () => {
  const compilation = fakeCompilation({});
  addEntryIntegrity({ stats: stats(), compilation });
  expect(compilation.errors).toHaveLength(1);
});
