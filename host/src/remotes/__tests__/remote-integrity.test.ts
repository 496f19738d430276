/** @jest-environment node */
import { createHash } from 'node:crypto';
import { sampleConfig } from '@portico/testing/sample-config';
import { manifestPins, sriMatches } from '../remote-integrity';

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
  expect(manifestPins({ remotes: sampleConfig.remotes, remoteIntegrity: { contact: pin } })).toEqual(new Map([[sampleConfig.remotes.contact, pin]]));
  expect(manifestPins({ remotes: sampleConfig.remotes })).toEqual(new Map());
});
