import path from 'node:path';
import { readManifest } from '@portico/contract/manifest';
import { createConfig } from '../create-config';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const contactDir = path.join(REPO_ROOT, 'remote-contact');

test('a section must declare how it hydrates: none, or one the page cannot follow, is refused with what to write', () => {
  expect(() => createConfig({ app: 'contact', dir: contactDir, exposes: 'src/exposes/section.ts' })).toThrow(
    /remote "contact" must declare how it hydrates \(\{ mode: 'static' \} or \{ mode: 'interactive', when: \[\.\.\.\] \}\)/,
  );
  expect(() =>
    createConfig({ app: 'contact', dir: contactDir, exposes: 'src/exposes/section.ts', hydration: { mode: 'interactive', when: ['soon' as 'load'] } }),
  ).toThrow(/hydration.when has "soon"/);
  expect(() => createConfig({ app: 'host', dir: path.join(REPO_ROOT, 'host'), hydration: { mode: 'static' } })).toThrow(/the host is not a section/);
});

test('the built manifests carry each section’s declaration, which the one manifest reader reads back', async () => {
  const { readFile } = await import('node:fs/promises');
  const read = async (app: string) => {
    const file = path.join(REPO_ROOT, app, 'dist/mf-manifest.json');
    const reading = readManifest(await readFile(file, 'utf8'), `http://localhost/${app}/mf-manifest.json`);
    if (!('manifest' in reading)) throw new Error(reading.problem);
    return reading.manifest.hydration;
  };
  expect(await read('remote-home')).toEqual({ mode: 'static' });
  expect(await read('remote-about')).toEqual({ mode: 'static' });
  expect(await read('remote-contact')).toEqual({ mode: 'interactive', when: ['selected', 'visible', 'interaction'] });
});
