import { writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { themeStylesheet } from '@portico/config-server/theme-stylesheet';
import { startPortico, type RunningPortico } from '../portico-server';
import { httpRequest, makeBuiltSite, portOf, rawRequest, type RawAnswer } from './built-site';
import { writeFakeWorkers } from './fake-workers';

// The front server's answers (encoding, ETag, 304, HEAD, /theme.css) with
// workers that render a page of a real page's size from the request alone.

const THEME = { background: '#fbf9f4', primary: '#6b2d5c' };
const site = makeBuiltSite();
writeFakeWorkers(site.root);
const configPath = path.join(site.root, 'config.json');
const config = (theme?: unknown) => ({
  comName: 'Lender',
  email: 'help@lender.example',
  address: 'Somewhere',
  copyright: '(c) Lender',
  remotes: { home: 'http://127.0.0.1:1/mf-manifest.json' },
  ...(theme === undefined ? {} : { theme }),
});
writeFileSync(configPath, JSON.stringify(config(THEME)));

const logged: string[] = [];
let running: RunningPortico;
let port: number;

async function ask(target: string, options: Parameters<typeof httpRequest>[1] = {}): Promise<RawAnswer> {
  const answer = await rawRequest(port, httpRequest(target, options));
  if (!answer) throw new Error(`no answer to ${target}`);
  return answer;
}

/** The body's bytes as they came (rawRequest reads them as latin1), decoded per Content-Encoding. */
function decoded(answer: RawAnswer): string {
  const bytes = Buffer.from(answer.body, 'latin1');
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(bytes).toString();
  if (encoding === 'gzip') return gunzipSync(bytes).toString();
  return bytes.toString();
}

beforeAll(async () => {
  running = await startPortico({ rootDir: site.root, basePort: 0, host: '127.0.0.1', configPath, log: linesLogger((line) => logged.push(line)) });
  port = portOf(running.url);
});
afterEach(() => {
  expect(logged.filter((line) => line.includes(' failed: '))).toEqual([]);
  logged.length = 0;
});
afterAll(async () => {
  await running.close();
  site.remove();
});

describe('the server-rendered page is compressed as the visitor accepts', () => {
  test.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
  ])('Accept-Encoding "%s" gets %s, the same page, its length counted in sent bytes', async (accept, encoding) => {
    const answer = await ask('/?type=2', { headers: { 'Accept-Encoding': accept } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body, 'latin1'));
    expect(answer.headers.vary).toBe('Accept-Encoding');
    const html = decoded(answer);
    expect(html).toContain('rendered by the fake worker');
    expect(html).toContain('Lender in id');
  });

  test('no Accept-Encoding at all: the plain page', async () => {
    const answer = await ask('/');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(decoded(answer)).toContain('Lender in en');
  });

  test('compressed, the page is a fraction of its size', async () => {
    const plain = await ask('/', { headers: { 'Accept-Encoding': 'identity' } });
    const br = await ask('/', { headers: { 'Accept-Encoding': 'br' } });
    expect(decoded(br)).toBe(plain.body);
    expect(Number(br.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 5);
  });

  test('each encoding has its own ETag, and a 304 answers only the one the visitor holds', async () => {
    const tags = await Promise.all(['br', 'gzip', 'identity'].map(async (accept) => (await ask('/', { headers: { 'Accept-Encoding': accept } })).headers.etag));
    expect(new Set(tags).size).toBe(3);
    const [brTag, gzipTag] = tags;

    const again = await ask('/', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': brTag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(brTag);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers['cache-control']).toBe('no-cache');

    // A compressed copy's tag is weak (its bytes may be made smaller later, the page the same); its strong form, or one of a list, is the same tag; a gzip copy is not what a br request gets.
    expect(brTag).toMatch(/^W\/"[^"]+-br"$/);
    expect((await ask('/', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': `"x", ${brTag!.slice(2)}` } })).status).toBe(304);
    const other = await ask('/', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': gzipTag! } });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('br');
  });

  test('HEAD says what GET sends, without the body', async () => {
    const get = await ask('/', { headers: { 'Accept-Encoding': 'gzip' } });
    const head = await ask('/', { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'content-security-policy']) {
      expect(`${name}: ${head.headers[name]}`).toBe(`${name}: ${get.headers[name]}`);
    }
  });

  test('the page keeps its security headers', async () => {
    const answer = await ask('/', { headers: { 'Accept-Encoding': 'br' } });
    expect(answer.headers['content-security-policy']).toContain("style-src 'self'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
  });
});

describe('/theme.css: the theme of the config.json being served', () => {
  const sheet = themeStylesheet(THEME)!;

  test('the linked version is the stylesheet, cached for good', async () => {
    const answer = await ask(sheet.href);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(answer.body).toBe(sheet.css);
    expect(answer.body).toContain('--color-primary:#6b2d5c');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  test("any other version (an older page's, or none) gets today's colours, revalidated", async () => {
    for (const target of ['/theme.css', '/theme.css?v=old']) {
      const answer = await ask(target);
      expect(answer.body).toBe(sheet.css);
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
  });

  test('304 and HEAD', async () => {
    const first = await ask(sheet.href);
    const again = await ask(sheet.href, { headers: { 'If-None-Match': first.headers.etag! } });
    expect(again.status).toBe(304);
    const head = await ask(sheet.href, { method: 'HEAD' });
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(sheet.css)));
  });

  test('an edit of config.json shows at once; no theme answers 404', async () => {
    try {
      writeFileSync(configPath, JSON.stringify(config({ primary: '#0b4f6b' })));
      const changed = await ask('/theme.css');
      expect(changed.body).toContain('--color-primary:#0b4f6b');
      expect(changed.headers.etag).not.toBe(`"${sheet.version}"`);

      writeFileSync(configPath, JSON.stringify(config()));
      expect((await ask('/theme.css')).status).toBe(404);
    } finally {
      writeFileSync(configPath, JSON.stringify(config(THEME)));
    }
  });

  test('a value that would break out of the rule is never served', async () => {
    try {
      const evil = '#6b2d5c;}body{display:none}:root{--x:1';
      writeFileSync(configPath, JSON.stringify(config({ primary: evil, text: '</style><script>alert(1)</script>' })));
      const answer = await ask('/theme.css');
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain('display:none');
      expect(answer.body).not.toContain('<script>');
    } finally {
      writeFileSync(configPath, JSON.stringify(config(THEME)));
    }
  });
});
