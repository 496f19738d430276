import { mkdtempSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPortico, type PorticoServerOptions, type RunningPortico } from '../portico-server';
import { httpRequest, INDEX_HTML, MAIN_JS, makeBuiltSite, portOf, rawRequest, SECRET, type RawAnswer } from './built-site';

const site = makeBuiltSite();
const logged: string[] = [];
let running: RunningPortico;
let port: number;

/** Starts another server on ephemeral ports for the options a test needs. */
async function withServer(options: Partial<PorticoServerOptions>, test: (port: number) => Promise<void>): Promise<void> {
  const own = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: linesLogger((line) => logged.push(line)), ...options });
  try {
    await test(portOf(own.url));
  } finally {
    await own.close();
  }
}

async function ask(target: string, options: Parameters<typeof httpRequest>[1] = {}, on = port): Promise<RawAnswer> {
  const answer = await rawRequest(on, httpRequest(target, options));
  if (!answer) throw new Error(`no answer to ${target}`);
  return answer;
}

beforeAll(async () => {
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', log: linesLogger((line) => logged.push(line)) });
  port = portOf(running.url);
});
afterEach(() => {
  // Nothing a client sends is a fault of the server.
  expect(logged.filter((line) => line.includes(' failed: '))).toEqual([]);
  logged.length = 0;
});
afterAll(async () => {
  await running.close();
  site.remove();
});

describe('a malformed request target answers 400, and the server goes on', () => {
  test.each(['//', '//a:x', '//[', '///', '/%', '/%e0%a4%a', '/a%zz', 'http://evil.example/', '*', 'index.html', '/a b', '/\x01'])('GET %s', async (target) => {
    const answer = await ask(target);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect((await ask('/')).status).toBe(200);
  });
});

describe('a Range that cannot be satisfied answers 416 with the size, on files and on the page', () => {
  test.each([
    ['/main.0123456789.js', 'GET', MAIN_JS.length],
    ['/main.0123456789.js', 'HEAD', MAIN_JS.length],
    ['/', 'GET', INDEX_HTML('host').length],
    ['/', 'HEAD', INDEX_HTML('host').length],
    ['/index.html', 'GET', INDEX_HTML('host').length],
  ])('bytes=10-5 on %s (%s)', async (target, method, size) => {
    const answer = await ask(target, { method, headers: { Range: 'bytes=10-5' } });
    expect(answer.status).toBe(416);
    expect(answer.headers['content-range']).toBe(`bytes */${size}`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect((await ask(target, { method })).status).toBe(200);
  });

  test.each(['bytes=999999-', 'bytes=999999-1000000', 'bytes=-0'])('%s is unsatisfiable too', async (range) => {
    expect((await ask('/main.0123456789.js', { headers: { Range: range } })).status).toBe(416);
  });

  test('a satisfiable range gets those bytes', async () => {
    const answer = await ask('/main.0123456789.js', { headers: { Range: 'bytes=0-9' } });
    expect(answer.status).toBe(206);
    expect(answer.headers['content-range']).toBe(`bytes 0-9/${MAIN_JS.length}`);
    expect(answer.body).toBe(MAIN_JS.slice(0, 10));
  });

  test.each(['bytes=abc', 'bytes=', 'bytes=--1'])('a byte range it cannot read (%s) is unsatisfiable (send, like nginx)', async (range) => {
    const answer = await ask('/main.0123456789.js', { headers: { Range: range } });
    expect(answer.status).toBe(416);
    expect(answer.headers['content-range']).toBe(`bytes */${MAIN_JS.length}`);
  });

  test('another unit is ignored: the whole file', async () => {
    const answer = await ask('/main.0123456789.js', { headers: { Range: 'items=0-1' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(MAIN_JS);
  });

  test('overlapping ranges are served as one', async () => {
    const answer = await ask('/main.0123456789.js', { headers: { Range: 'bytes=0-1,0-1,1-3' } });
    expect(answer.status).toBe(206);
    expect(answer.body).toBe(MAIN_JS.slice(0, 4));
  });
});

/*
 * The security headers, each asserted once per kind of answer, at the server
 * (no browser needed to read a header). Where each kind is covered:
 * - the page and every HTML answer (/, /index.html, the 404 page): the
 *   describe below (CSP, X-Frame-Options, nosniff, Referrer-Policy,
 *   Permissions-Policy, COOP); the server-rendered page in
 *   server-rendered-answers.test.ts; the CSP naming the remotes in
 *   portico-server.test.ts; that the CSP really blocks an inline script,
 *   in the browser (tests/specs/security-headers.spec.ts);
 * - the data answers (config.json, robots.txt, sitemap.xml) and the apps'
 *   files, the host's and a remote's: this table;
 * - 400 (a malformed target): the describe just above; 405: its test
 *   below; 500 and what Node's parser refuses: guard.test.ts;
 * - the contact API's JSON: messages' contact-endpoint.test.ts; section
 *   stylesheets: section-styles.test.ts; HSTS: its describe below; CORS:
 *   portico-server.test.ts ("cross-origin access").
 */
describe('security headers on the data answers and the files', () => {
  const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";
  test.each(['/config.json', '/robots.txt', '/sitemap.xml'])('%s may run and embed nothing, and is not sniffed', async (target) => {
    const answer = await ask(target);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-security-policy']).toBe(DATA_POLICY);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  test("the host's files and a remote's are not sniffed; a script goes without the document-only Permissions-Policy", async () => {
    const contact = running.ports[3]!;
    for (const [on, file, withPolicy] of [
      [port, '/main.0123456789.js', false],
      [contact, '/remoteEntry.js', false],
      [contact, '/mf-manifest.json', true],
    ] as const) {
      const answer = await ask(file, { host: `127.0.0.1:${on}` }, on);
      expect([on, file, answer.status, answer.headers['x-content-type-options']]).toEqual([on, file, 200, 'nosniff']);
      expect([file, answer.headers['referrer-policy']]).toEqual([file, 'strict-origin-when-cross-origin']);
      expect([file, answer.headers['permissions-policy'] !== undefined]).toEqual([file, withPolicy]);
    }
  });
});

describe('the page is served at / and /index.html only, and every HTML answer carries the protection', () => {
  const expectPageProtection = (answer: RawAnswer) => {
    const csp = answer.headers['content-security-policy'] ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(answer.headers['permissions-policy']).toContain('camera=()');
  };

  test.each(['/', '/index.html', '/?type=2', '/index.html?remote.contact=x'])('%s is the page', async (target) => {
    const answer = await ask(target);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(INDEX_HTML('host'));
    expectPageProtection(answer);
  });

  test.each([
    '/index.html%3F',
    '//index.html',
    '/index.html%23',
    '/%2Findex.html',
    '/index.html/',
    '/index.html%3F.0123456789.js',
    '/index.html%00',
    '/INDEX.HTML',
    '/index.html.',
    '/index.html;x',
    '/./index.html',
    '/assets/../index.html',
    '/%69ndex.html',
    '/index.htm',
  ])('%s answers 404 with the page protection and no long cache', async (target) => {
    const answer = await ask(target);
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('<a href="/">');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expectPageProtection(answer);
  });
});

test.each(['/config%2Ejson', '/confi%67.json', '/robots%2Etxt', '/sitemap%2Exml', '/theme%2Ecss', '/config.json%23'])(
  'a named route answers its own spelling only: %s is no file, 404',
  async (target) => {
    const answer = await ask(target);
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('<a href="/">');
  },
);

describe('only real hashed files are immutable', () => {
  test.each(['/main.0123456789.js', '/assets/banner.0123456789.svg', '/alias.0123456789.js'])('%s', async (target) => {
    const answer = await ask(target);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test.each(['/missing.0123456789.js', '/main.0123456789.js/', '/main.0123456789.js%3F', '/main.0123456789.js;.0123456789.js'])(
    '%s is not one: 404, no-cache',
    async (target) => {
      const answer = await ask(target);
      expect(answer.status).toBe(404);
      expect(answer.headers['cache-control']).toBe('no-cache');
    },
  );
});

describe('symlinks never lead out of dist/', () => {
  test.each(['/escape.0123456789.js', '/relative-escape.txt', '/outside/secret.txt', '/outside/remote-home/dist/index.html'])(
    '%s answers 404',
    async (target) => {
      const answer = await ask(target);
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain(SECRET);
    },
  );

  test('a precompressed copy that leads out is not used: the plain file is sent', async () => {
    const answer = await ask('/linked.0123456789.js', { headers: { 'Accept-Encoding': 'br' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body).toBe('var plain;');
  });
});

describe('compression follows the q-values', () => {
  test.each([
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, br', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['GZIP', 'gzip'],
  ])('Accept-Encoding "%s" gets %s', async (accept, encoding) => {
    const answer = await ask('/main.0123456789.js', { headers: { 'Accept-Encoding': accept } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary).toBe('Accept-Encoding');
  });

  test.each([
    ['gzip, deflate, br, zstd', 'gzip'],
    ['br;q=1, gzip;q=0.5', 'gzip'],
    ['br', undefined],
  ])('a file with only a gzip copy: Accept-Encoding "%s" gets %s', async (accept, encoding) => {
    const answer = await ask('/gzipped.0123456789.js', { headers: { 'Accept-Encoding': accept } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary).toBe('Accept-Encoding');
  });

  test('a 304 says it varies by Accept-Encoding and keeps the cache rule', async () => {
    const first = await ask('/main.0123456789.js', { headers: { 'Accept-Encoding': 'br' } });
    const again = await ask('/main.0123456789.js', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': first.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('the Host header', () => {
  test.each(['localhost:8080@evil.example', 'evil.example', 'evil.example:8080', 'localhost.evil.example', 'localhost:8080/x', '', 'localhost:99999'])(
    'Host "%s" answers 400',
    async (host) => {
      const answer = await ask('/', { host });
      expect(answer.status).toBe(400);
      expect(answer.body).not.toContain('evil');
    },
  );

  test('a request without Host (HTTP/1.0) answers 400', async () => {
    expect((await ask('/', { host: null, version: '1.0' })).status).toBe(400);
  });

  test.each(['localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT', 'LOCALHOST:PORT'])('Host "%s" is one of ours', async (host) => {
    expect((await ask('/', { host: host.replace('PORT', String(port)) })).status).toBe(200);
  });

  test.each(['localhost', 'localhost:1', '127.0.0.1:8080', '[::1]:80'])('Host "%s", a port the page is not served on, answers 400', async (host) => {
    const answer = await ask('/', { host });
    expect(answer.status).toBe(400);
    expect(answer.body).toBe('Bad request: unknown host\n');
  });

  test("the default config's remotes follow the Host, and the answer says it varies by it", async () => {
    for (const target of ['/', '/config.json', '/nope']) {
      const answer = await ask(target, { host: `127.0.0.1:${port}` });
      expect(`${target}: ${answer.headers.vary}`).toBe(`${target}: Host`);
    }
    const config = JSON.parse((await ask('/config.json', { host: `127.0.0.1:${port}` })).body) as { remotes: Record<string, string> };
    expect(Object.values(config.remotes).every((url) => url.startsWith('http://127.0.0.1:'))).toBe(true);
  });

  test("PORTICO_HOSTS names the only hosts answered, on the server's port or the one given", async () => {
    await withServer({ hostnames: ['portico.example', '192.0.2.7', 'mapped.example:8080'] }, async (own) => {
      expect((await ask('/', { host: `portico.example:${own}` }, own)).status).toBe(200);
      expect((await ask('/', { host: `192.0.2.7:${own}` }, own)).status).toBe(200);
      expect((await ask('/', { host: '192.0.2.7:8080' }, own)).status).toBe(400);
      expect((await ask('/', { host: 'mapped.example:8080' }, own)).status).toBe(200);
      expect((await ask('/', { host: `mapped.example:${own}` }, own)).status).toBe(400);
      expect((await ask('/', { host: `localhost:${own}` }, own)).status).toBe(400);
    });
  });

  test('an operator config does not depend on the Host: no Vary: Host', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portico-vary-'));
    const configPath = path.join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ remotes: { home: 'https://cdn.example/mf-manifest.json' } }));
    await withServer({ configPath }, async (own) => {
      expect((await ask('/config.json', {}, own)).headers.vary).toBeUndefined();
    });
  });
});

describe('forwarded headers', () => {
  const forwarded = { 'X-Forwarded-Host': 'portico.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' };

  test('are ignored without a trusted proxy', async () => {
    const answer = await ask('/config.json', { headers: forwarded });
    expect(answer.status).toBe(200);
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect(answer.body).toContain('http://localhost:');
  });

  test('behind a trusted proxy, the forwarded host is checked and used, and https brings HSTS', async () => {
    await withServer({ trustProxy: true, hostnames: ['portico.example'] }, async (own) => {
      const answer = await ask('/config.json', { host: '127.0.0.1', headers: forwarded }, own);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('http://portico.example:');
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(answer.headers.vary).toBe('Host, X-Forwarded-Host');

      const file = await ask('/main.0123456789.js', { host: '127.0.0.1', headers: forwarded }, own);
      expect(file.headers['strict-transport-security']).toBe('max-age=31536000');

      const plain = await ask('/', { host: '127.0.0.1', headers: { ...forwarded, 'X-Forwarded-Proto': 'http' } }, own);
      expect(plain.headers['strict-transport-security']).toBeUndefined();

      const foreign = await ask('/', { host: 'portico.example', headers: { ...forwarded, 'X-Forwarded-Host': 'evil.example' } }, own);
      expect(foreign.status).toBe(400);
    });
  });
});

describe('/config.json is revalidated by its ETag, and an edit is served on the next request', () => {
  test('a matching If-None-Match answers 304 with no body and the same headers; an edit of the same size answers the new file to the old tag', async () => {
    const configPath = path.join(mkdtempSync(path.join(tmpdir(), 'portico-config-etag-')), 'config.json');
    writeFileSync(configPath, JSON.stringify({ comName: 'Lender A' }));
    await withServer({ configPath }, async (own) => {
      const first = await ask('/config.json', {}, own);
      expect(first.status).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);

      const again = await ask('/config.json', { headers: { 'If-None-Match': etag } }, own);
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      const { date: _date, etag: _etag, ...sent } = first.headers;
      for (const [name, value] of Object.entries(sent))
        if (name !== 'content-length' && name !== 'connection' && name !== 'x-request-id') expect([name, again.headers[name]]).toEqual([name, value]);

      writeFileSync(configPath, JSON.stringify({ comName: 'Lender B' }));
      const edited = await ask('/config.json', { headers: { 'If-None-Match': etag } }, own);
      expect(edited.status).toBe(200);
      expect(JSON.parse(edited.body)).toEqual({ comName: 'Lender B' });
      expect(edited.headers.etag).not.toBe(etag);
    });
  });

  test('an unavailable config.json has no ETag: its 503 is never revalidated', async () => {
    const configPath = path.join(mkdtempSync(path.join(tmpdir(), 'portico-config-etag-')), 'config.json');
    writeFileSync(configPath, '{ "comName": ');
    await withServer({ configPath }, async (own) => {
      const answer = await ask('/config.json', { headers: { 'If-None-Match': '*' } }, own);
      expect(answer.status).toBe(503);
      expect(answer.headers.etag).toBeUndefined();
    });
  });
});

describe('a config.json the server cannot serve answers 503 with the reason in the log', () => {
  const configWith = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'portico-bad-config-')), 'config.json');
    writeFileSync(file, text);
    return file;
  };

  test.each([
    ['4,500 levels deep', configWith(`{"a":${'['.repeat(4_500)}${']'.repeat(4_500)}}`), 'nests more than 64 levels deep'],
    ['over 1 MB', configWith(JSON.stringify({ comName: 'x'.repeat(2 * 1024 * 1024) })), 'is larger than 1048576 bytes'],
    ['a folder', path.dirname(configWith('{}')), 'is not a file'],
    ['not JSON', configWith('{ nope'), 'is not JSON'],
  ])('%s', async (_what, configPath, reason) => {
    await withServer({ configPath }, async (own) => {
      const answer = await ask('/config.json', {}, own);
      expect(answer.status).toBe(503);
      expect(logged.some((line) => line.startsWith('config.json: ') && line.includes(reason))).toBe(true);
      const page = await ask('/', {}, own);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    });
  });
});

describe("an operator's mistake in config.json is the operator's: logged once per content, never on the page", () => {
  const configFile = (config: unknown) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'portico-invalid-config-')), 'config.json');
    writeFileSync(file, JSON.stringify(config));
    return file;
  };
  const lender = { companyName: 'PT Kredit Cepat Nusantara', licenceNumber: 'KEP-01/D.05/2026', grievanceOfficer: { name: 'Dewi', email: 'dewi@kcn.example' } };
  const operatorFile = {
    comName: 'Kredit Cepat Nusantara',
    email: 'halo at kcn',
    address: 'Jakarta',
    copyright: '© 2026 KCN',
    copyrightByLanguage: { id: '© 2026 KCN. Hak cipta dilindungi.' },
    remotes: { home: 'http://127.0.0.1:1/mf-manifest.json', about: 'http://127.0.0.1:1/mf-manifest.json', contact: 'http://127.0.0.1:1/mf-manifest.json' },
    legal: { IN: lender, ID: { ...lender, licenceNumber: '' } },
  };
  const reportOf = (lines: string[]) => lines.filter((line) => /^config\.json: (email|legal)/.test(line));

  test('an invalid email and licence field: named with the reason at start, not again for the same file, again once it is edited', async () => {
    const configPath = configFile(operatorFile);
    await withServer({ configPath }, async (own) => {
      const expected = [
        'config.json: email: is not a valid email (the page is rendered without it)',
        'config.json: legal.ID.licenceNumber: must not be empty (the page is rendered without it)',
        'config.json: legal.ID has no licenceNumber: the Indonesia page (?type=2) shows its lender without them',
      ];
      expect(reportOf(logged)).toEqual(expected);
      for (const target of ['/', '/?type=2', '/config.json', '/config.json']) expect((await ask(target, {}, own)).status).toBe(200);
      expect(reportOf(logged)).toEqual(expected);

      writeFileSync(configPath, JSON.stringify({ ...operatorFile, address: 'Jl. Sudirman, Jakarta' }));
      expect((await ask('/config.json', {}, own)).status).toBe(200);
      expect(reportOf(logged)).toEqual([...expected, ...expected]);
    });
  });

  test('the old single legal object: a line at start saying how to move it', async () => {
    const { legal: _new, ...rest } = operatorFile;
    await withServer({ configPath: configFile({ ...rest, email: 'halo@kcn.example', legal: { market: 'ID', ...lender } }) }, async () => {
      expect(reportOf(logged)).toEqual([
        expect.stringMatching(
          /^config\.json: legal is the old single-lender shape: it is shown on the Indonesia \(\?type=2\) page only\. Move its fields, without "market", into "legal": \{ "ID": \{ … \} \}/,
        ),
        expect.stringMatching(/^config\.json: legal\.IN is missing: the India page \(\?type=1\) shows no lender/),
      ]);
    });
  });
});

test('methods other than GET and HEAD answer 405 with the strict headers', async () => {
  const answer = await ask('/', { method: 'PATCH' });
  expect(answer.status).toBe(405);
  expect(answer.headers.allow).toBe('GET, HEAD');
  expect(answer.headers['x-frame-options']).toBe('DENY');
});
