/** @jest-environment node */
import { createHash } from 'node:crypto';
import { sampleConfig } from '@portico/testing/sample-config';
import { manifestHashes, manifestPins, sriMatches } from '../remote-integrity';

const bytesOf = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const sri = (algorithm: string, text: string) => `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`;

describe('sriMatches', () => {
  test.each(['sha256', 'sha384', 'sha512'])('accepts bytes that hash to a %s pin', async (algorithm) => {
    await expect(sriMatches(bytesOf('{"a":1}'), sri(algorithm, '{"a":1}'))).resolves.toBe(true);
  });

  test('refuses bytes changed by even one character', async () => {
    await expect(sriMatches(bytesOf('{"a":2}'), sri('sha384', '{"a":1}'))).resolves.toBe(false);
  });

  test('refuses an unknown algorithm rather than skipping the check', async () => {
    await expect(sriMatches(bytesOf('x'), 'md5-abc')).rejects.toThrow('not a sha256, sha384 or sha512');
  });

  test('says why when the page cannot compute hashes (plain HTTP)', async () => {
    await expect(sriMatches(bytesOf('x'), sri('sha384', 'x'), null)).rejects.toThrow('not a secure context');
  });
});

test('manifestPins maps each configured manifest URL to its pin, and only pinned ones', () => {
  const pin = sri('sha384', 'm');
  expect(manifestPins({ remotes: sampleConfig.remotes, remoteIntegrity: { contact: pin } })).toEqual(
    new Map([[sampleConfig.remotes.contact, pin]]),
  );
  expect(manifestPins({ remotes: sampleConfig.remotes })).toEqual(new Map());
});

describe('manifestHashes', () => {
  const integrity = sri('sha384', 'entry');
  const chunk = sri('sha384', 'chunk');
  const manifest = (metaData: object) => ({
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', integrity }, integrity: { 'expose.1.js': chunk }, ...metaData },
  });

  test('publicPath "auto" puts the files beside the manifest, sub-path and query included', () => {
    const found = manifestHashes(manifest({ publicPath: 'auto' }), 'http://cdn.example/contact/v2/mf-manifest.json?x=1');
    expect(found?.entryUrl).toBe('http://cdn.example/contact/v2/remoteEntry.js');
    expect(found?.entryIntegrity).toBe(integrity);
    expect(found?.byUrl).toEqual(
      new Map([
        ['http://cdn.example/contact/v2/expose.1.js', chunk],
        ['http://cdn.example/contact/v2/remoteEntry.js', integrity],
      ]),
    );
  });

  test('an explicit publicPath and entry path are honoured; no hash, no entry in the table', () => {
    const found = manifestHashes(
      { metaData: { publicPath: 'https://static.example/app/', remoteEntry: { name: 'remoteEntry.js', path: 'js' } } },
      'https://other.example/mf-manifest.json',
    );
    expect(found?.entryUrl).toBe('https://static.example/app/js/remoteEntry.js');
    expect(found?.entryIntegrity).toBeUndefined();
    expect(found?.byUrl.size).toBe(0);
  });

  test.each([[null], [{}], [{ metaData: {} }], ['text']])('something that is not a manifest (%p) gives nothing', (value) => {
    expect(manifestHashes(value, 'http://x.example/mf-manifest.json')).toBeUndefined();
  });
});
