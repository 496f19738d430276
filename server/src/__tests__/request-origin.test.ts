import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { parseHost } from '@portico/shared-config/node-config';
import { allowedHostnames, trustProxyFrom, visitorOf } from '../request-origin';

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
    const visitor = visitorOf(
      requestOf({ ...forwarded, 'x-forwarded-for': '198.51.100.1, 203.0.113.9', 'x-forwarded-proto': 'http, https' }),
      { trustProxy: true },
    );
    expect(visitor.address).toBe('203.0.113.9');
    expect(visitor.protocol).toBe('https');
  });

  test('a forwarded value that is not one falls back to the request itself', () => {
    const visitor = visitorOf(
      requestOf({ ...forwarded, 'x-forwarded-for': 'not-an-ip', 'x-forwarded-proto': 'gopher' }, { remoteAddress: '::1' }),
      { trustProxy: true },
    );
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

test('parseHost keeps IPv6 brackets and lower-cases', () => {
  expect(parseHost('[::1]:8080')).toEqual({ host: '[::1]:8080', hostname: '[::1]' });
  expect(parseHost('LocalHost')).toEqual({ host: 'localhost', hostname: 'localhost' });
});

describe('allowedHostnames', () => {
  test('by default: localhost, loopback and every address of this machine', () => {
    const names = allowedHostnames({});
    for (const name of ['localhost', '127.0.0.1', '[::1]']) expect(names.has(name)).toBe(true);
    expect([...names].every((name) => !name.includes('%'))).toBe(true);
  });

  test('PORTICO_HOSTS replaces the default', () => {
    expect([...allowedHostnames({ PORTICO_HOSTS: 'www.portico.example, 192.0.2.7,[2001:db8::1], ::2' })]).toEqual([
      'www.portico.example',
      '192.0.2.7',
      '[2001:db8::1]',
      '[::2]',
    ]);
  });
});

test('PORTICO_TRUST_PROXY is 1 or 0; anything else stops the start with the reason', () => {
  expect(trustProxyFrom({})).toBe(false);
  expect(trustProxyFrom({ PORTICO_TRUST_PROXY: '0' })).toBe(false);
  expect(trustProxyFrom({ PORTICO_TRUST_PROXY: '1' })).toBe(true);
  expect(() => trustProxyFrom({ PORTICO_TRUST_PROXY: 'yes' })).toThrow('PORTICO_TRUST_PROXY must be 1');
});
