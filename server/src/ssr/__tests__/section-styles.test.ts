import { createHash, randomBytes } from 'node:crypto';
import { linesLogger } from '@portico/platform/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { readManifest, type Manifest } from '@portico/contract/manifest';
import { scopeSectionStylesheet } from '@portico/node-sections';
import { scopedStylesheetAddress } from '@portico/contract/section-styles';
import { SectionStyles, SECTION_STYLES_PATH, type SectionStyleLimits } from '../section-styles';
import { writeAnswer } from '@portico/platform/http';

// A section's origin (a plain static server) and the front server's answer
// for the page's origin, both on loopback. The plan prepares a manifest's
// stylesheets (`prepare`); a page only looks their links up (`links`).

const CSS = '.home-hero { color: #0b5c6b; }\n'.repeat(40);
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

let files: Record<string, string>;
let requests: string[];
let origin: Server;
let front: Server;
let logged: string[];
let sectionUrl: string;
let frontUrl: string;
let styles: SectionStyles;

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/** `styles` answering on the front server from now on, with these limits. */
function useStyles(limits: Partial<SectionStyleLimits> = {}): SectionStyles {
  styles?.close();
  styles = new SectionStyles(
    linesLogger((line) => logged.push(line)),
    limits,
  );
  return styles;
}

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
  useStyles();
  front = createServer((req, res) => {
    const pathname = new URL(req.url!, 'http://x').pathname;
    if (styles.handles(pathname)) writeAnswer(res, styles.answer(req, pathname));
    else res.writeHead(418).end();
  });
  frontUrl = await listen(front);
});

afterEach(async () => {
  styles.close();
  await Promise.all([origin, front].map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A section's manifest at `base` naming `sheets` for its section: each a
 * path with the CSS its hash is made of (`null`: named without a hash).
 * With its text's hash, as the watcher gives it.
 */
function manifestNaming(sheets: Record<string, string | null>, base = sectionUrl, build = 'b1'): { manifest: Manifest; hash: string } {
  const integrity = Object.fromEntries(Object.entries(sheets).flatMap(([file, css]) => (css === null ? [] : [[file.replace(/^\//, ''), sri(css)]])));
  const text = JSON.stringify({
    name: 'portico_home',
    metaData: { buildInfo: { buildId: build }, remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto', integrity },
    exposes: [{ path: './section', assets: { css: { sync: Object.keys(sheets).map((file) => file.replace(/^\//, '')), async: [] } } }],
    shared: [],
  });
  const read = readManifest(text, `${base}/mf-manifest.json`);
  if (!('manifest' in read)) throw new Error(read.problem);
  return { manifest: read.manifest, hash: createHash('sha256').update(text).digest('base64') };
}

const fetchedCss = () => requests.filter((url) => url.endsWith('.css'));

/** `css` as the page's origin answers it: every rule inside Home's slot (node-sections' scopeSectionStylesheet). */
const scopedHome = (css: string) => scopeSectionStylesheet(css, { section: 'home', url: `${sectionUrl}/home.css`, origin: sectionUrl }).css;

test('a stylesheet a manifest names with its hash is fetched once, when the plan prepares the manifest, and answered from the page’s origin under its hash, immutable and compressed', async () => {
  const { manifest, hash } = manifestNaming({ '/home.css': CSS });
  // Nothing is fetched for a page before the plan has prepared it.
  expect(styles.links(manifest, hash)).toBeUndefined();
  expect(await styles.prepare('home', manifest, hash)).toBe(true);
  const [link] = styles.links(manifest, hash)!;
  expect(link!.href.startsWith(SECTION_STYLES_PATH)).toBe(true);
  // The page's copy is scoped to the section's slot, and linked with that copy's hash.
  expect(link!.integrity).toBe(sri(scopedHome(CSS)));
  // The section's own URL for it goes with it, so its code in the browser finds the copy (render-shell.tsx).
  expect(link!.source).toBe(`${sectionUrl}/home.css`);

  for (let visit = 0; visit < 3; visit += 1) {
    // Every page looks the links up; every plan prepares the manifest again.
    expect(styles.links(manifest, hash)).toEqual([link]);
    await styles.prepare('home', manifest, hash);
    const response = await fetch(`${frontUrl}${link!.href}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    // fetch decodes br itself; what arrived is the section's CSS, scoped to its slot.
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe(scopedHome(CSS));
  }
  expect(requests).toEqual(['/home.css']);
  // Another manifest (a new build) naming the same file: not fetched again.
  const next = manifestNaming({ '/home.css': CSS }, sectionUrl, 'b2');
  expect(await styles.prepare('home', next.manifest, next.hash)).toBe(true);
  expect(requests).toEqual(['/home.css']);
});

test('no open proxy: an address no kept manifest named is a 404, and nothing is fetched for it', async () => {
  const { manifest, hash } = manifestNaming({ '/home.css': CSS });
  await styles.prepare('home', manifest, hash);
  requests = [];
  for (const path of ['sha384-AAAA.css', '..%2F..%2Fetc%2Fpasswd', `${encodeURIComponent(`${sectionUrl}/home.css`)}`]) {
    expect((await fetch(`${frontUrl}${SECTION_STYLES_PATH}${path}`)).status).toBe(404);
  }
  expect(requests).toEqual([]);
});

test('stylesheets that cannot be fetched (missing, changed on the origin) are fetched once per manifest, linked at the address where the page asks for them scoped, never where the manifest names them, and the log says so once', async () => {
  const published = `${CSS}.footer {}`;
  files['/changed.css'] = `${published}body { display: none }`;
  const sheets: Record<string, string | null> = { '/home.css': CSS, '/changed.css': published };
  for (let missing = 0; missing < 20; missing += 1) sheets[`/missing-${missing}.css`] = `.m${missing} {}`;
  const { manifest, hash } = manifestNaming(sheets);
  for (let plan = 0; plan < 5; plan += 1) expect(await styles.prepare('home', manifest, hash)).toBe(true);
  for (let page = 0; page < 20; page += 1) styles.links(manifest, hash);
  expect(fetchedCss().sort()).toEqual(Object.keys(sheets).sort());
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/^the home section's stylesheets: 21 of 22 could not be fetched for its page, which asks for them scoped when it loads/);
  const links = styles.links(manifest, hash)!;
  // Issue 46: the section's own file, unscoped, is never linked (a CDN that answers the server slowly got it applied as published).
  expect(links.filter(({ href }) => href.startsWith(sectionUrl))).toEqual([]);
  const changed = `${sectionUrl}/changed.css`;
  expect(links.find(({ source }) => source === changed)).toEqual({
    href: scopedStylesheetAddress({ section: 'home', href: changed, integrity: sri(published) }),
    source: changed,
  });
  expect(links.filter(({ href }) => href.startsWith(SECTION_STYLES_PATH))).toHaveLength(22);
  // What failed its hash is never answered from the page's origin.
  const guessed = sri(published).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  expect((await fetch(`${frontUrl}${SECTION_STYLES_PATH}${guessed}.css`)).status).toBe(404);
});

test('more stylesheets than a section may have: none fetched, the section left to the browser, one log line', async () => {
  const sheets: Record<string, string> = {};
  for (let index = 0; index < 33; index += 1) sheets[`/s${index}.css`] = `.s${index} {}`;
  const { manifest, hash } = manifestNaming(sheets);
  for (let plan = 0; plan < 5; plan += 1) expect(await styles.prepare('home', manifest, hash)).toBe(false);
  expect(styles.links(manifest, hash)).toBeUndefined();
  expect(requests).toEqual([]);
  expect(logged).toEqual([
    `the home section is rendered in the browser: its manifest names 33 stylesheets, over the 32 a section rendered on the server may have (${sectionUrl}/mf-manifest.json)`,
  ]);
});

test('stylesheets larger together than a section may have: each fetched at most once, the section left to the browser, one log line, nothing kept', async () => {
  const big = (name: string) => `.${name} { content: "${'x'.repeat(300 * 1024)}"; }`;
  const sheets: Record<string, string> = {};
  for (let index = 0; index < 6; index += 1) sheets[`/big${index}.css`] = files[`/big${index}.css`] = big(`b${index}`);
  const { manifest, hash } = manifestNaming(sheets);
  for (let plan = 0; plan < 5; plan += 1) expect(await styles.prepare('home', manifest, hash)).toBe(false);
  expect(new Set(fetchedCss()).size).toBe(fetchedCss().length);
  expect(logged).toEqual([expect.stringMatching(/^the home section is rendered in the browser: its stylesheets come to more than 1 MB/)]);
  expect(styles.bytes).toBe(0);
});

test('all kept together within cacheBytes: a manifest whose stylesheets would not fit is left to the browser; a retired one makes room', async () => {
  useStyles({ cacheBytes: 100 * 1024, retiredMs: 60_000 });
  // About 30 KB that compresses little: with its copies, one fits, two do not.
  const sheet = (name: string) => `.${name} { content: "${randomBytes(22 * 1024).toString('base64')}"; }`;
  files['/a.css'] = sheet('a');
  files['/b.css'] = sheet('b');
  const a = manifestNaming({ '/a.css': files['/a.css'] }, sectionUrl, 'a');
  const b = manifestNaming({ '/b.css': files['/b.css'] }, sectionUrl, 'b');
  expect(await styles.prepare('home', a.manifest, a.hash)).toBe(true);
  styles.keepPrepared();
  expect(await styles.prepare('about', b.manifest, b.hash)).toBe(false);
  expect(logged).toEqual([
    expect.stringMatching(
      /^the about section is rendered in the browser: its stylesheets \(.* MB with their compressed copies\) do not fit in the 0\.1 MB kept/,
    ),
  ]);
  expect(styles.bytes).toBeLessThanOrEqual(100 * 1024);
  // The next plan names another build of home: a's are retired, and give way to it.
  const c = manifestNaming({ '/b.css': files['/b.css'] }, sectionUrl, 'c');
  styles.keepPrepared();
  expect(await styles.prepare('home', c.manifest, c.hash)).toBe(true);
  expect(styles.bytes).toBeLessThanOrEqual(100 * 1024);
});

test('a manifest no plan names any more keeps nothing after retiredMs: rotated 30 times, one manifest’s stylesheets are kept, the old ones answer 404, and nothing is fetched for them', async () => {
  useStyles({ retiredMs: 0 });
  const addresses: string[] = [];
  let kept = 0;
  for (let build = 0; build < 30; build += 1) {
    const css = `.r${build} { content: "${'y'.repeat(20 * 1024)}"; }`;
    files[`/r${build}.css`] = css;
    const { manifest, hash } = manifestNaming({ [`/r${build}.css`]: css }, sectionUrl, `r${build}`);
    expect(await styles.prepare('home', manifest, hash)).toBe(true);
    styles.keepPrepared();
    addresses.push(styles.links(manifest, hash)![0]!.href);
    if (build === 0) kept = styles.bytes;
  }
  // One manifest's, not thirty (their compressed sizes differ by a few bytes).
  expect(styles.bytes).toBeLessThan(1.1 * kept);
  requests = [];
  for (const address of addresses.slice(0, -1)) expect((await fetch(`${frontUrl}${address}`)).status).toBe(404);
  expect((await fetch(`${frontUrl}${addresses.at(-1)}`)).status).toBe(200);
  expect(requests).toEqual([]);
});

test('a stylesheet without a hash is left off the page (nothing could check what would be scoped), never fetched by this server', async () => {
  const { manifest, hash } = manifestNaming({ '/home.css': null });
  expect(await styles.prepare('home', manifest, hash)).toBe(true);
  expect(styles.links(manifest, hash)).toEqual([]);
  expect(logged).toEqual([expect.stringContaining("the home section's stylesheets: 1 of 1 are left off the page")]);
  expect(requests).toEqual([]);
});

test('a manifest naming a stylesheet on another origin (another host on the server’s network) never makes the server fetch it', async () => {
  const { manifest, hash } = manifestNaming({ '/home.css': CSS }, 'https://cdn.example/contact');
  // Its file is on cdn.example; point it at the loopback origin instead, as a hostile manifest would.
  const elsewhere = `${sectionUrl}/home.css`;
  const hostile = { ...manifest, stylesheets: { './section': [elsewhere] }, hashes: new Map([[elsewhere, sri(CSS)]]) };
  expect(await styles.prepare('contact', hostile, hash)).toBe(true);
  expect(styles.links(hostile, hash)).toEqual([]);
  const guessed = `${SECTION_STYLES_PATH}${sri(CSS).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.css`;
  expect((await fetch(`${frontUrl}${guessed}`)).status).toBe(404);
  expect(requests).toEqual([]);
});

test('brotli on the wire when the visitor accepts it', async () => {
  const { manifest, hash } = manifestNaming({ '/home.css': CSS });
  await styles.prepare('home', manifest, hash);
  const [link] = styles.links(manifest, hash)!;
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
  expect(brotliDecompressSync(raw.body).toString()).toBe(scopedHome(CSS));
});

// Issue 46: Home's stylesheet read what a visitor typed into Contact. The
// copy the page links keeps only what stays in Home's slot (checked failing
// without the scoping: the copy was the stylesheet as published).
test("the page's copy of a stylesheet keeps every rule inside its section's slot, leaves out @import and rules reaching the page, and says so once", async () => {
  const hostile = [
    '.home-hero{color:#0b5c6b}',
    '@import url(/live.css);',
    '#contact input[name=telephone][value$="9"]{background-image:url(/leak?9)}',
    'body:has(#contact:not([hidden]))::after{position:fixed;inset:0;content:""}',
  ].join('\n');
  const { manifest, hash } = manifestNaming({ '/home.css': hostile });
  files['/home.css'] = hostile;
  expect(await styles.prepare('home', manifest, hash)).toBe(true);
  await styles.prepare('home', manifest, hash);
  const [link] = styles.links(manifest, hash)!;
  const served = await (await fetch(`${frontUrl}${link!.href}`)).text();
  expect(served).toBe(':where([data-section-island="home"]) .home-hero{color:#0b5c6b}');
  expect(logged).toEqual([
    expect.stringMatching(/^the home section's stylesheets: 3 rules left out, which would reach outside its slot .*: @import url\("\/live\.css"\) is refused/),
  ]);
  expect(requests).toEqual(['/home.css']);
});
