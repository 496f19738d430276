import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { SectionStyles, SECTION_STYLES_PATH } from '../section-styles';

// A section's origin (a plain static server) and the front server's answer
// for the page's origin, both on loopback.

const CSS = '.home-hero { color: #0b5c6b; }\n'.repeat(40);
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

let files: Record<string, string>;
let requests: string[];
let origin: Server;
let front: Server;
let styles: SectionStyles;
let logged: string[];
let sectionUrl: string;
let frontUrl: string;

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

beforeEach(async () => {
  files = { '/home.css': CSS };
  requests = [];
  origin = createServer((req, res) => {
    requests.push(req.url!);
    const body = files[req.url!];
    res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'text/css' });
    res.end(body);
  });
  sectionUrl = await listen(origin);
  logged = [];
  styles = new SectionStyles((line) => logged.push(line));
  front = createServer((req, res) => {
    const pathname = new URL(req.url!, 'http://x').pathname;
    if (styles.handles(pathname)) void styles.answer(req, res, pathname);
    else res.writeHead(418).end();
  });
  frontUrl = await listen(front);
});

afterEach(async () => {
  await Promise.all([origin, front].map((server) => new Promise((resolve) => server.close(resolve))));
});

test('a stylesheet a manifest names with its hash is answered from the page’s origin, under its hash, immutable and compressed, fetched once', async () => {
  const [link] = styles.local(`${sectionUrl}/mf-manifest.json`, [{ href: `${sectionUrl}/home.css`, integrity: sri(CSS) }]);
  expect(link!.href.startsWith(SECTION_STYLES_PATH)).toBe(true);
  expect(link!.integrity).toBe(sri(CSS));
  // The section's own URL for it goes with it, so its code in the browser finds the copy (render-shell.tsx).
  expect(link!.source).toBe(`${sectionUrl}/home.css`);

  for (let visit = 0; visit < 3; visit += 1) {
    const response = await fetch(`${frontUrl}${link!.href}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await response.arrayBuffer());
    // fetch decodes br itself; what arrived is the section's CSS, byte for byte.
    expect(body.toString()).toBe(CSS);
  }
  expect(requests).toEqual(['/home.css']);
});

test('no open proxy: an address no manifest named is a 404, and nothing is fetched for it', async () => {
  const [link] = styles.local(`${sectionUrl}/mf-manifest.json`, [{ href: `${sectionUrl}/home.css`, integrity: sri(CSS) }]);
  expect((await fetch(`${frontUrl}${link!.href}`)).status).toBe(200);
  requests = [];
  for (const path of ['sha384-AAAA.css', '..%2F..%2Fetc%2Fpasswd', `${encodeURIComponent(`${sectionUrl}/home.css`)}`]) {
    const response = await fetch(`${frontUrl}${SECTION_STYLES_PATH}${path}`);
    expect(response.status).toBe(404);
  }
  expect(requests).toEqual([]);
});

test('a stylesheet changed on the section’s origin (not the manifest’s hash) is never answered: 502, and the log says why', async () => {
  files['/home.css'] = `${CSS}body { display: none }`;
  const [link] = styles.local(`${sectionUrl}/mf-manifest.json`, [{ href: `${sectionUrl}/home.css`, integrity: sri(CSS) }]);
  const response = await fetch(`${frontUrl}${link!.href}`);
  expect(response.status).toBe(502);
  expect(await response.text()).not.toContain('display: none');
  expect(logged.join('\n')).toMatch(/section stylesheet could not be answered.*home\.css/);
});

test('a stylesheet without a hash is linked where the manifest says, never through this server', () => {
  expect(styles.local(`${sectionUrl}/mf-manifest.json`, [{ href: `${sectionUrl}/home.css` }])).toEqual([{ href: `${sectionUrl}/home.css` }]);
});

test('a manifest naming a stylesheet on another origin (another host on the server’s network) never makes the server fetch it', async () => {
  const elsewhere = `${sectionUrl}/home.css`;
  const links = styles.local('https://cdn.example/contact/mf-manifest.json', [{ href: elsewhere, integrity: sri(CSS) }]);
  expect(links).toEqual([{ href: elsewhere, integrity: sri(CSS) }]);
  const guessed = `${SECTION_STYLES_PATH}${sri(CSS).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.css`;
  expect((await fetch(`${frontUrl}${guessed}`)).status).toBe(404);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(requests).toEqual([]);
});

test('brotli on the wire when the visitor accepts it', async () => {
  const [link] = styles.local(`${sectionUrl}/mf-manifest.json`, [{ href: `${sectionUrl}/home.css`, integrity: sri(CSS) }]);
  const { request } = await import('node:http');
  const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    request(`${frontUrl}${link!.href}`, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
  expect(raw.encoding).toBe('br');
  expect(raw.body.length).toBeLessThan(CSS.length / 4);
  expect(brotliDecompressSync(raw.body).toString()).toBe(CSS);
});
