import { startPortico, type RunningPortico } from '../portico-server';
import { silentLogger } from '@portico/platform/logging';
import { robotsTxt, sitemapXml } from '../crawler-files';
import { httpRequest, makeBuiltSite, portOf, rawRequest, type RawAnswer } from './built-site';

const site = makeBuiltSite();
let running: RunningPortico;
let proxied: RunningPortico;

async function ask(on: RunningPortico, target: string, options: Parameters<typeof httpRequest>[1] = {}, app = 0): Promise<RawAnswer> {
  const answer = await rawRequest(on.ports[app]!, httpRequest(target, options));
  if (!answer) throw new Error(`no answer to ${target}`);
  return answer;
}

beforeAll(async () => {
  const options = { rootDir: site.root, basePort: 0, host: '127.0.0.1', log: silentLogger };
  running = await startPortico(options);
  proxied = await startPortico({ ...options, trustProxy: true, hostnames: ['www.portico.example'] });
});
afterAll(async () => {
  await Promise.all([running.close(), proxied.close()]);
  site.remove();
});

test('the sitemap lists the page in both languages, each with both hreflang alternates and x-default', () => {
  const xml = sitemapXml('https://www.portico.example');
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"')).toBe(true);
  expect([...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])).toEqual(['https://www.portico.example/', 'https://www.portico.example/?type=2']);
  const alternates = [...xml.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((match) => `${match[1]} ${match[2]}`);
  expect(alternates).toEqual(
    [1, 2].flatMap(() => ['en-IN https://www.portico.example/', 'id-ID https://www.portico.example/?type=2', 'x-default https://www.portico.example/']),
  );
});

test('robots.txt allows everything and names the sitemap by its absolute URL', () => {
  expect(robotsTxt('http://localhost:8080')).toBe('User-agent: *\nAllow: /\n\nSitemap: http://localhost:8080/sitemap.xml\n');
});

test('the host answers /sitemap.xml as XML for the origin the visitor used, HEAD without a body', async () => {
  const port = portOf(running.url);
  const answer = await ask(running, '/sitemap.xml', { host: `127.0.0.1:${port}` });
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
  // Its security headers: request-answers.test.ts, with the other data answers.
  expect(answer.headers.vary).toBe('Host');
  expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  expect(answer.body).toContain(`<loc>http://127.0.0.1:${port}/?type=2</loc>`);

  const head = await ask(running, '/sitemap.xml', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.body).toBe('');
});

test('the host answers /robots.txt as text naming its sitemap; the static file is only for static hosting', async () => {
  const answer = await ask(running, '/robots.txt');
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(answer.body).toBe(robotsTxt(running.url));
});

test('robots.txt and the sitemap never name a port the server is not on: such a Host is refused', async () => {
  for (const path of ['/robots.txt', '/sitemap.xml']) {
    for (const host of ['localhost:1', '127.0.0.1:1', 'localhost', `localhost:${running.ports[1]}`]) {
      const answer = await ask(running, path, { host });
      expect(`${path} ${host}: ${answer.status}`).toBe(`${path} ${host}: 400`);
      expect(answer.body).not.toContain(':1/');
    }
  }
});

test('behind a trusted proxy the URLs carry the public host and scheme', async () => {
  const answer = await ask(proxied, '/sitemap.xml', {
    host: '127.0.0.1',
    headers: { 'X-Forwarded-Host': 'www.portico.example', 'X-Forwarded-Proto': 'https' },
  });
  expect(answer.body).toContain('<loc>https://www.portico.example/</loc>');
  expect(answer.headers.vary).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
  expect((await ask(proxied, '/robots.txt', { host: 'evil.example' })).status).toBe(400);
  // The proxy passes on the port the visitor wrote; only the scheme's default is the site's.
  for (const forwardedHost of ['www.portico.example:1', 'www.portico.example:8443', 'www.portico.example:80']) {
    const answer = await ask(proxied, '/sitemap.xml', { host: '127.0.0.1', headers: { 'X-Forwarded-Host': forwardedHost, 'X-Forwarded-Proto': 'https' } });
    expect(`${forwardedHost}: ${answer.status}`).toBe(`${forwardedHost}: 400`);
  }
  expect(
    (await ask(proxied, '/sitemap.xml', { host: '127.0.0.1', headers: { 'X-Forwarded-Host': 'www.portico.example:443', 'X-Forwarded-Proto': 'https' } }))
      .status,
  ).toBe(200);
});

test('a PORTICO_HOSTS entry with a port is the one port answered for that name', async () => {
  const mapped = await startPortico({
    rootDir: site.root,
    basePort: 0,
    host: '127.0.0.1',
    log: silentLogger,
    trustProxy: true,
    hostnames: ['www.portico.example:8443'],
  });
  try {
    const asked = (forwardedHost: string) =>
      ask(mapped, '/sitemap.xml', { host: '127.0.0.1', headers: { 'X-Forwarded-Host': forwardedHost, 'X-Forwarded-Proto': 'https' } });
    const answer = await asked('www.portico.example:8443');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<loc>https://www.portico.example:8443/</loc>');
    expect((await asked('www.portico.example')).status).toBe(400);
    expect((await asked('www.portico.example:443')).status).toBe(400);
  } finally {
    await mapped.close();
  }
});

test('a remote has no sitemap, and only the exact paths answer', async () => {
  expect((await ask(running, '/sitemap.xml', {}, 1)).status).toBe(404);
  expect((await ask(running, '/sitemap.xml/')).status).toBe(404);
  expect((await ask(running, '/Sitemap.xml')).status).toBe(404);
});
