import { mkdtempSync, writeFileSync } from 'node:fs';
import { silentLogger } from '@portico/platform/logging';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPortico, type RunningPortico } from '../portico-server';
import { MAIN_JS, makeBuiltSite, SECRET } from './built-site';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: Node's client sends the path as written, `..` and `%2e` included. */
function get(port: number, rawPath: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const site = makeBuiltSite();
const root = site.root;
let running: RunningPortico;
let host: number;
let contact: number;

beforeAll(async () => {
  running = await startPortico({ rootDir: root, basePort: 0, host: '127.0.0.1' });
  [host, , , contact] = running.ports as [number, number, number, number];
});
afterAll(async () => {
  await running.close();
  site.remove();
});

describe('paths never leave a dist/ folder', () => {
  const attempts = [
    '/../secret.txt',
    '/../../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2e%2e/secret.txt',
    '/.%2e/secret.txt',
    '/..%2fsecret.txt',
    '/..%2f..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets%2f..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5c%2e%2e%5csecret.txt',
    '/..\\secret.txt',
    '/assets\\..\\..\\secret.txt',
    '/%252e%252e/secret.txt',
    '/index.html%00',
    '/%00/../secret.txt',
    '/secret.txt%00.js',
    '/.secret',
    '/%2esecret',
    '/.git/config',
    '/%2egit/config',
    '/assets/./../.secret',
    '//secret.txt',
    '/%',
    '/%e0%a4%a',
  ];

  test.each(attempts)('%s on the host answers 404 (or 400), never a secret', async (attempt) => {
    const answer = await get(host, attempt);
    expect([400, 404]).toContain(answer.status);
    expect(answer.body).not.toContain(SECRET);
  });

  test.each(attempts)('%s on a remote answers 404 (or 400), never a secret', async (attempt) => {
    const answer = await get(contact, attempt);
    expect([400, 404]).toContain(answer.status);
    expect(answer.body).not.toContain(SECRET);
  });

  test('an unknown path gets a small page with a way home and the page headers', async () => {
    const answer = await get(host, '/nope');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('<a href="/">');
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
    expect(answer.headers['cache-control']).toBe('no-cache');
  });
});

describe('methods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'])('%s answers 405 with Allow: GET, HEAD', async (method) => {
    const answer = await get(host, '/index.html', { method });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });

  test('HEAD answers the headers of GET without a body', async () => {
    const answer = await get(host, '/', { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).toBeDefined();
    expect(answer.body).toBe('');
  });
});

describe('caching', () => {
  test.each([
    ['/', 'host'],
    ['/index.html', 'host'],
    ['/remoteEntry.js', 'contact'],
    ['/mf-manifest.json', 'contact'],
  ] as const)('%s is revalidated on every use: no-cache with an ETag, 304 when unchanged', async (file, app) => {
    const port = app === 'host' ? host : contact;
    const first = await get(port, file);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.etag).toMatch(/^W\/".+"$/);

    const again = await get(port, file, { headers: { 'If-None-Match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  test.each(['/main.0123456789.js', '/assets/banner.0123456789.svg'])('hashed %s is immutable for a year', async (file) => {
    const answer = await get(contact, file);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('config.json is never cached without revalidation', async () => {
    const answer = await get(host, '/config.json');
    expect(answer.headers['cache-control']).toBe('no-cache');
  });
});

describe('precompressed files', () => {
  test.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['', undefined],
  ])('Accept-Encoding "%s" gets %s', async (accept, encoding) => {
    const answer = await get(host, '/main.0123456789.js', { headers: { 'Accept-Encoding': accept } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    if (!encoding) expect(answer.body).toBe(MAIN_JS);
  });
});

describe('cross-origin access', () => {
  test.each(['/remoteEntry.js', '/mf-manifest.json', '/main.0123456789.js'])("a remote's %s may be read from any origin", async (file) => {
    const answer = await get(contact, file);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  test.each(['/', '/main.0123456789.js', '/config.json', '/mf-manifest.json'])("the host's %s may not", async (file) => {
    const answer = await get(host, file);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('security headers', () => {
  test("the host page's CSP names the remotes of the config it serves, on the request's host name", async () => {
    const answer = await get(host, '/', { headers: { Host: `127.0.0.1:${host}` } });
    const csp = String(answer.headers['content-security-policy']);
    const [, home, about] = running.ports;
    // Code from Contact's remote only, the one section granted script; images from all three; styles and connections from the page's own.
    expect(csp).toContain(`script-src 'self' http://127.0.0.1:${contact};`);
    expect(csp).toContain(`img-src 'self' http://127.0.0.1:${home} http://127.0.0.1:${about} http://127.0.0.1:${contact};`);
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toMatch(/unsafe/);
    // The page's other headers, and every file's, are asserted once, in request-answers.test.ts.
  });
});

test("with PORTICO_CONFIG the CSP follows the operator's file, read afresh per request", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-csp-'));
  const configPath = path.join(dir, 'config.json');
  const write = (contactUrl: string, allowed: string[]) =>
    writeFileSync(
      configPath,
      JSON.stringify({
        remotes: { home: 'https://home.example/mf-manifest.json', about: 'https://home.example/about/mf-manifest.json', contact: contactUrl },
        allowedRemoteOrigins: allowed,
      }),
    );
  write('https://cdn.example/contact/v1/mf-manifest.json', ['https://staging.example']);
  const own = await startPortico({ rootDir: root, basePort: 0, host: '127.0.0.1', configPath, log: silentLogger });
  try {
    const csp = async () => String((await get(own.ports[0]!, '/')).headers['content-security-policy']);
    expect(await csp()).toContain("script-src 'self' https://cdn.example https://staging.example;");
    write('https://other-cdn.example/mf-manifest.json', []);
    expect(await csp()).toContain("script-src 'self' https://other-cdn.example;");
    writeFileSync(configPath, '{ not json');
    expect(await csp()).toContain("script-src 'self';");
  } finally {
    await own.close();
  }
});
