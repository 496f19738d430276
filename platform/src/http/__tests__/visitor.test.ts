import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { parseHost } from '@portico/contract/host';
import { readSetting } from '@portico/platform/settings';
import { parseHostRule } from '../host-rules';
import { hostAllowed, isSecureContext, visitorOf } from '../visitor';

// The settings as the server reads them (@portico/platform/settings).
const allowedHosts = (env: Record<string, string>) => readSetting(env, 'PORTICO_HOSTS');
const trustProxyFrom = (env: Record<string, string>) => readSetting(env, 'PORTICO_TRUST_PROXY');

/** A request as the server sees it: headers, and the socket's peer. */
function requestOf(headers: Record<string, string | string[]>, socket: Partial<Socket> & { encrypted?: boolean } = {}): IncomingMessage {
  return { headers, socket: { remoteAddress: '127.0.0.1', ...socket } } as unknown as IncomingMessage;
}

const forwarded = {
  host: '127.0.0.1:8080',
  'x-forwarded-host': 'www.portico.example',
  'x-forwarded-proto': 'https',
  'x-forwarded-for': '203.0.113.9',
};

describe('visitorOf', () => {
  test('without a trusted proxy: the Host header and the socket, forwarded headers ignored', () => {
    expect(visitorOf(requestOf(forwarded), { trustProxy: false })).toEqual({
      origin: 'http://127.0.0.1:8080',
      host: '127.0.0.1:8080',
      hostname: '127.0.0.1',
      protocol: 'http',
      address: '127.0.0.1',
    });
  });

  test("behind a trusted proxy: the proxy's X-Forwarded-Host, -Proto and -For", () => {
    expect(visitorOf(requestOf(forwarded), { trustProxy: true })).toEqual({
      origin: 'https://www.portico.example',
      host: 'www.portico.example',
      hostname: 'www.portico.example',
      protocol: 'https',
      address: '203.0.113.9',
    });
  });

  test('the last entry of each list is the one our proxy added; earlier ones are the client talking', () => {
    const visitor = visitorOf(requestOf({ ...forwarded, 'x-forwarded-for': '198.51.100.1, 203.0.113.9', 'x-forwarded-proto': 'http, https' }), {
      trustProxy: true,
    });
    expect(visitor.address).toBe('203.0.113.9');
    expect(visitor.protocol).toBe('https');
  });

  test('a forwarded value that is not one falls back to the request itself', () => {
    const visitor = visitorOf(requestOf({ ...forwarded, 'x-forwarded-for': 'not-an-ip', 'x-forwarded-proto': 'gopher' }, { remoteAddress: '::1' }), {
      trustProxy: true,
    });
    expect(visitor.address).toBe('::1');
    expect(visitor.protocol).toBe('http');
  });

  test('a TLS socket is https', () => {
    expect(visitorOf(requestOf({ host: 'localhost' }, { encrypted: true }), { trustProxy: false }).origin).toBe('https://localhost');
  });

  test('the default port is not part of the origin', () => {
    expect(visitorOf(requestOf({ ...forwarded, 'x-forwarded-host': 'www.portico.example:443' }), { trustProxy: true }).origin).toBe(
      'https://www.portico.example',
    );
  });

  test.each(['localhost:8080@evil.example', 'a b', '', 'evil.example/x', 'localhost:99999', 'localhost:'])('Host %p gives no origin', (host) => {
    const visitor = visitorOf(requestOf({ host }), { trustProxy: false });
    expect(visitor.origin).toBeUndefined();
    expect(visitor.hostname).toBeUndefined();
  });
});

test.each([
  ['localhost:8080', true],
  ['LOCALHOST', true],
  ['shop.localhost', true],
  ['127.0.0.1:8080', true],
  ['127.9.9.9', true],
  ['[::1]:8080', true],
  // Names made to look like loopback are not: the visitor's page there is plain HTTP.
  ['localhost.evil.example', false],
  ['127.0.0.1.evil.example', false],
  ['evillocalhost', false],
  ['10.0.0.5:8080', false],
  ['www.portico.example', false],
  ['[::2]', false],
])('isSecureContext over plain HTTP, Host %s: %s (the page can read its visit id only then)', (host, secure) => {
  expect(isSecureContext(visitorOf(requestOf({ host }), { trustProxy: false }))).toBe(secure);
});

test('isSecureContext: HTTPS anywhere; behind a trusted proxy its X-Forwarded-Proto, which an untrusted client cannot claim', () => {
  expect(isSecureContext(visitorOf(requestOf(forwarded), { trustProxy: true }))).toBe(true);
  expect(isSecureContext(visitorOf(requestOf({ ...forwarded, host: 'www.portico.example' }), { trustProxy: false }))).toBe(false);
  expect(isSecureContext(visitorOf(requestOf({ host: 'www.portico.example' }, { encrypted: true }), { trustProxy: false }))).toBe(true);
});

test('parseHost keeps IPv6 brackets and lower-cases', () => {
  expect(parseHost('[::1]:8080')).toEqual({ host: '[::1]:8080', hostname: '[::1]' });
  expect(parseHost('LocalHost')).toEqual({ host: 'localhost', hostname: 'localhost' });
});

describe('allowedHosts', () => {
  test('by default: localhost, loopback and every address of this machine, on the port the request came in on', () => {
    const hosts = allowedHosts({});
    for (const hostname of ['localhost', '127.0.0.1', '[::1]']) expect(hosts).toContainEqual({ hostname });
    expect(hosts.every((rule) => !rule.hostname.includes('%') && rule.port === undefined)).toBe(true);
  });

  test('PORTICO_HOSTS replaces the default, with or without a port', () => {
    expect(allowedHosts({ PORTICO_HOSTS: 'www.portico.example, 192.0.2.7:8443,[2001:db8::1], ::2, [2001:db8::3]:9000, WWW.Portico.example:443' })).toEqual([
      { hostname: 'www.portico.example' },
      { hostname: '192.0.2.7', port: 8443 },
      { hostname: '[2001:db8::1]' },
      { hostname: '[::2]' },
      { hostname: '[2001:db8::3]', port: 9000 },
      { hostname: 'www.portico.example', port: 443 },
    ]);
  });

  test.each(['www.portico.example:0', 'www.portico.example:99999', 'http://www.portico.example', 'a b', 'www.portico.example:', 'user@host'])(
    'a bad PORTICO_HOSTS entry (%p) stops the start, named',
    (entry) => {
      expect(() => allowedHosts({ PORTICO_HOSTS: `localhost,${entry}` })).toThrow(`PORTICO_HOSTS: "${entry}" is not a host name`);
    },
  );
});

describe('hostAllowed: the Host, port included', () => {
  const direct = { localPort: 8080, trustProxy: false };
  const proxied = { localPort: 8090, trustProxy: true };
  const visitor = (host: string, protocol: 'http' | 'https' = 'http') => ({ host, hostname: host.replace(/:\d+$/, ''), protocol });
  const rules = [parseHostRule('localhost'), parseHostRule('[::1]'), parseHostRule('www.portico.example'), parseHostRule('mapped.example:9000')];

  test.each([
    ['localhost:8080', direct, true],
    ['[::1]:8080', direct, true],
    // Not the port the server is reached on: the canonical URL would name a port nobody serves.
    ['localhost:1', direct, false],
    ['localhost:8081', direct, false],
    // No port is port 80.
    ['localhost', direct, false],
    ['mapped.example:9000', direct, true],
    ['mapped.example:8080', direct, false],
    ['mapped.example', direct, false],
    ['evil.example:8080', direct, false],
  ] as const)('directly, %s is %s', (host, context, allowed) => {
    expect(hostAllowed(rules, visitor(host), context)).toBe(allowed);
  });

  test.each([
    ['www.portico.example', 'https', true],
    ['www.portico.example:443', 'https', true],
    ['www.portico.example', 'http', true],
    ['www.portico.example:1', 'https', false],
    ['www.portico.example:80', 'https', false],
    ['www.portico.example:8443', 'https', false],
    // The server's own port still works (a health check to the server itself).
    ['www.portico.example:8090', 'http', true],
    ['mapped.example:9000', 'https', true],
    ['mapped.example', 'https', false],
  ] as const)('behind a trusted proxy, %s over %s is %s', (host, protocol, allowed) => {
    expect(hostAllowed(rules, visitor(host, protocol), proxied)).toBe(allowed);
  });

  test('no host, no answer', () => {
    expect(hostAllowed(rules, { host: undefined, hostname: undefined, protocol: 'http' }, direct)).toBe(false);
  });
});

test('PORTICO_TRUST_PROXY is 1 or 0; anything else stops the start with the reason', () => {
  expect(trustProxyFrom({})).toBe(false);
  expect(trustProxyFrom({ PORTICO_TRUST_PROXY: '0' })).toBe(false);
  expect(trustProxyFrom({ PORTICO_TRUST_PROXY: '1' })).toBe(true);
  expect(() => trustProxyFrom({ PORTICO_TRUST_PROXY: 'yes' })).toThrow('PORTICO_TRUST_PROXY must be 1');
});
