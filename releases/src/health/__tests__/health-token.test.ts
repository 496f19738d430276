import { randomBytes } from 'node:crypto';
import { signPreview, verifyPreview } from '../../preview-link';
import { HEALTH_TOKEN_HOURS, signHealthToken, verifyHealthToken } from '../health-token';

const secret = randomBytes(32);
const now = new Date('2026-05-01T12:00:00Z');
const later = new Date(now.getTime() + HEALTH_TOKEN_HOURS * 3_600_000);

test('a token vouches for the releases and cohort it was signed for, until it expires', () => {
  const token = signHealthToken(secret, { releases: { home: 'home-3', contact: 'contact-9' }, cohort: 42 }, later);
  expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  expect(token.length).toBeLessThan(200);
  expect(verifyHealthToken(secret, token, now)).toEqual({ releases: { home: 'home-3', contact: 'contact-9' }, cohort: 42, expiresAt: later });
  // Every server on the database holds the same secret, so any of them verifies it.
  expect(verifyHealthToken(Buffer.from(secret), token, now)).toMatchObject({ cohort: 42 });
  // No cohort when no canary ran: none comes back.
  expect(verifyHealthToken(secret, signHealthToken(secret, { releases: {} }, later), now)).toEqual({ releases: {}, expiresAt: later });
});

test('an expired token vouches for nothing', () => {
  const token = signHealthToken(secret, { releases: { home: 'home-3' } }, later);
  expect(verifyHealthToken(secret, token, later)).toEqual({ problem: `expired at ${later.toISOString()}` });
  expect(verifyHealthToken(secret, token, new Date(later.getTime() - 1000))).toMatchObject({ releases: { home: 'home-3' } });
});

test('a tampered, forged or malformed token vouches for nothing', () => {
  const token = signHealthToken(secret, { releases: { contact: 'contact-9' } }, later);
  const [payload, mac] = token.split('.') as [string, string];
  // Another release named under the same signature.
  const swapped = Buffer.from(JSON.stringify({ r: { contact: 'contact-1' }, e: Math.floor(later.getTime() / 1000) })).toString('base64url');
  expect(verifyHealthToken(secret, `${swapped}.${mac}`, now)).toEqual({ problem: 'tampered: the signature does not match' });
  // Signed with another secret (another database, or a guess).
  expect(verifyHealthToken(secret, signHealthToken(randomBytes(32), { releases: { contact: 'contact-9' } }, later), now)).toMatchObject({
    problem: expect.stringMatching(/^tampered/),
  });
  // A MAC a byte short, or one character flipped.
  expect(verifyHealthToken(secret, `${payload}.${mac.slice(0, -2)}`, now)).toMatchObject({ problem: expect.stringMatching(/^tampered/) });
  expect(verifyHealthToken(secret, `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`, now)).toMatchObject({
    problem: expect.stringMatching(/^tampered/),
  });
  for (const malformed of ['', 'abc', 'a.b.c', `${payload}.${mac}=`, `${payload}.`]) {
    expect(verifyHealthToken(secret, malformed, now)).toHaveProperty('problem');
  }
});

test('a validly signed payload of the wrong shape still grants nothing', () => {
  // What the server itself never signs: a section no id can name (sections are added at run time, so any id the grammar allows may be signed), a cohort out of range, a release that is not text.
  const signed = (note: unknown) => signHealthToken(secret, note as Parameters<typeof signHealthToken>[1], later);
  expect(verifyHealthToken(secret, signed({ releases: { 'Pricing!': 'pricing-1' } }), now)).toMatchObject({ problem: expect.stringMatching(/^malformed/) });
  expect(verifyHealthToken(secret, signed({ releases: {}, cohort: 100 }), now)).toMatchObject({ problem: expect.stringMatching(/^malformed/) });
  expect(verifyHealthToken(secret, signed({ releases: { home: 3 } }), now)).toMatchObject({ problem: expect.stringMatching(/^malformed/) });
});

test('a report token is not a preview link, nor a preview link a report token', () => {
  const preview = signPreview(secret, { release: 'contact-9', expiresAt: later });
  expect(verifyHealthToken(secret, preview, now)).toMatchObject({ problem: expect.stringMatching(/^tampered/) });
  const report = signHealthToken(secret, { releases: { contact: 'contact-9' } }, later);
  expect(verifyPreview(secret, report, now)).toMatchObject({ problem: expect.stringMatching(/^tampered/) });
});
