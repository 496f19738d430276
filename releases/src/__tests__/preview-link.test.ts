import { createHmac, randomBytes } from 'node:crypto';
import { DEFAULT_PREVIEW_SECONDS, previewUrl, signPreview, verifyPreview } from '../preview-link';
import { readSettings } from '@portico/platform/settings';

const secret = randomBytes(32);
const now = new Date('2026-05-01T09:00:00Z');
const inADay = new Date(now.getTime() + DEFAULT_PREVIEW_SECONDS * 1000);

describe('a preview link', () => {
  it('grants its release until it expires, and is short', () => {
    const token = signPreview(secret, { release: 'contact-12', expiresAt: inADay });
    expect(token.length).toBeLessThan(100);
    expect(verifyPreview(secret, token, now)).toEqual({ release: 'contact-12', expiresAt: inADay });
    expect(verifyPreview(secret, token, new Date(inADay.getTime() - 1000))).toMatchObject({ release: 'contact-12' });
  });

  it('grants nothing once expired', () => {
    const token = signPreview(secret, { release: 'contact-12', expiresAt: inADay });
    expect(verifyPreview(secret, token, inADay)).toEqual({ problem: `expired at ${inADay.toISOString()}` });
  });

  it('grants nothing when its release or expiry was changed, or it was signed with another secret', () => {
    const token = signPreview(secret, { release: 'contact-12', expiresAt: inADay });
    const [, mac] = token.split('.');
    const longer = Buffer.from(JSON.stringify({ r: 'contact-12', e: Math.floor(inADay.getTime() / 1000) + 86_400 * 365 })).toString('base64url');
    const other = Buffer.from(JSON.stringify({ r: 'home-1', e: Math.floor(inADay.getTime() / 1000) })).toString('base64url');
    for (const tampered of [`${longer}.${mac}`, `${other}.${mac}`, signPreview(randomBytes(32), { release: 'contact-12', expiresAt: inADay })]) {
      expect(verifyPreview(secret, tampered, now)).toEqual({ problem: 'tampered: the signature does not match' });
    }
  });

  it.each(['', 'abc', 'a.b.c', 'not base64!.x', '.'])('grants nothing to the malformed %j', (token) => {
    expect(verifyPreview(secret, token, now)).toMatchObject({ problem: expect.stringMatching(/^(malformed|tampered)/) });
  });

  it('grants nothing to a signed payload that is not a grant', () => {
    const signed = (payload: string) => {
      const encoded = Buffer.from(payload).toString('base64url');
      return `${encoded}.${createHmac('sha256', secret).update(encoded).digest('base64url')}`;
    };
    expect(verifyPreview(secret, signed('not json'), now)).toEqual({ problem: 'malformed: the payload is not JSON' });
    expect(verifyPreview(secret, signed('{"r":"home-1"}'), now)).toEqual({ problem: 'malformed: the payload lacks its release or expiry' });
    expect(verifyPreview(secret, signed('null'), now)).toEqual({ problem: 'malformed: the payload is not an object' });
  });

  it('opens the page at PORTICO_PUBLIC_URL, else http://localhost:<port>', () => {
    const publicUrlOf = (env: Record<string, string>, port: number) =>
      readSettings({ ...env, PORT: String(port) }, { rootDir: '/srv', invokedFrom: '/srv' }).publicUrl;
    expect(previewUrl(publicUrlOf({}, 8080), 'abc.def')).toBe('http://localhost:8080/?preview=abc.def');
    expect(previewUrl(publicUrlOf({ PORTICO_PUBLIC_URL: 'https://www.lender.example/loans' }, 8080), 'abc.def')).toBe(
      'https://www.lender.example/loans/?preview=abc.def',
    );
    expect(() => publicUrlOf({ PORTICO_PUBLIC_URL: 'javascript:alert(1)' }, 8080)).toThrow('PORTICO_PUBLIC_URL must be an http(s) URL');
    // On the previewed section's tab (issue 49: a Contact preview opened on Home).
    expect(previewUrl('https://www.lender.example/loans#about', 'abc.def', 'contact')).toBe('https://www.lender.example/loans/?preview=abc.def#contact');
  });
});
