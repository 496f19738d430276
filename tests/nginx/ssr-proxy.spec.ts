import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { runRelease, runServe, waitForOutput, type ServeProcess } from '../support/run-cli';
import { serveUnderPath } from '../support/static-server';

/**
 * nginx in front of the Node server (`nginx:config` without --no-ssr): the
 * page, /sitemap.xml and /robots.txt come from `npm run serve`, started here
 * on the upstream port run.sh named, static files from nginx; with the Node
 * server gone, nginx still serves the client-rendered page.
 */
const url = process.env.PORTICO_NGINX_URL ?? '';
const configPath = process.env.PORTICO_NGINX_CONFIG ?? '';
const upstreamPort = Number(process.env.PORTICO_NGINX_UPSTREAM_PORT ?? 0);
const nodeUrl = `http://127.0.0.1:${upstreamPort}`;

test.describe.configure({ mode: 'serial' });

const TOKEN = 'the-integrators-nginx-token';
const release = (...args: string[]) => runRelease(args, { port: upstreamPort, token: TOKEN });

let serve: ServeProcess | undefined;

test.beforeAll(async () => {
  if (!url || !configPath || !upstreamPort) throw new Error('run through `npm run test:nginx`, which starts nginx');
  serve = runServe({
    PORT: String(upstreamPort),
    HOST: '127.0.0.1',
    PORTICO_CONFIG: configPath,
    PORTICO_TRUST_PROXY: '1',
    PORTICO_CONTROL_TOKEN: TOKEN,
    // nginx passes on the Host the browser wrote, port included: the port nginx serves the page on;
    // 127.0.0.1 without a port is the Node server's own port, which the test also asks directly.
    PORTICO_HOSTS: `127.0.0.1:${new URL(url).port},127.0.0.1`,
  });
  await waitForOutput(serve);
  // The specs before this one ran with no Node server: nginx marks each of
  // its two upstreams unavailable for fail_timeout (10 s) after a failure,
  // serving the static page meanwhile. Until it tries again.
  await expect.poll(async () => (await fetch(`${url}/`)).headers.get('content-security-policy') ?? '', { timeout: 30_000 }).toContain("'sha256-");
});

test.afterAll(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

test("the page is the Node server's answer, rendered for the origin nginx was reached on, with the Node server's headers", async ({ request }) => {
  const [viaNginx, direct] = await Promise.all([request.get(`${url}/`), request.get(`${nodeUrl}/`)]);
  expect(viaNginx.status()).toBe(200);
  // The Node server's own policy: nginx added nothing and served no file of its own.
  expect(viaNginx.headers()['content-security-policy']).toBe(direct.headers()['content-security-policy']);
  const html = await viaNginx.text();
  expect(html).toContain('<main');
  // Rendered for the public origin (X-Forwarded-Host), not the upstream's.
  expect(html).toContain(`<link rel="canonical" href="${url}/"`);
  expect(html).not.toContain(nodeUrl);
  // The sections' stylesheets it links from its own origin come through nginx from the Node server.
  const styles = [...html.matchAll(/href="(\/section-styles\/[^"]+\.css)"/g)].map((match) => match[1]!);
  expect(styles).toHaveLength(3);
  for (const path of styles) {
    const css = await request.get(`${url}${path}`);
    expect(css.status(), path).toBe(200);
    expect(css.headers()['content-type']).toBe('text/css; charset=utf-8');
  }
  const indonesian = await (await request.get(`${url}/index.html?type=2`)).text();
  expect(indonesian).toContain('<html lang="id"');
  expect(indonesian).toContain('<main');
});

test('/sitemap.xml and /robots.txt name the public origin nginx was reached on', async ({ request }) => {
  const sitemap = await request.get(`${url}/sitemap.xml`);
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()['content-type']).toBe('application/xml; charset=utf-8');
  const body = await sitemap.text();
  expect(body).toContain(`<loc>${url}/</loc>`);
  expect(body).toContain(`<loc>${url}/?type=2</loc>`);
  expect(body).toContain(`hreflang="id-ID" href="${url}/?type=2"`);
  expect(await (await request.get(`${url}/robots.txt`)).text()).toContain(`Sitemap: ${url}/sitemap.xml`);
});

test('with JavaScript off the server-rendered page reads: sections, footer, tabs as links', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${url}/?type=2`);
  // Rendered by the Node server behind nginx: the client-rendered page has no <main> in its HTML.
  await expect(page.locator('main')).toHaveCount(1);
  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
  for (const name of ['Beranda', 'Tentang Kami', 'Hubungi Kami']) await expect(page.getByRole('tabpanel', { name })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Tentang Kami' })).toHaveAttribute('href', '#about');
  await expect(page.getByRole('contentinfo')).toContainText('Portico Credit');
  await context.close();
});

test('with JavaScript off the contact form posts through nginx: errors answered with the page, uncached, then the thank-you by a 303', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${url}/?type=2#contact`);
  const panel = page.getByRole('tabpanel', { name: 'Hubungi Kami' });
  await panel.getByLabel('Nama').fill('Asha Lewat-Nginx');
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/contact');
  await panel.getByRole('button', { name: 'Kirim pesan' }).click();
  expect((await answered).status()).toBe(422);
  expect((await answered).headers()['cache-control']).toBe('no-store');
  await expect(page.getByRole('alert')).toHaveText('Mohon lengkapi semua data!');
  await expect(panel.getByLabel('Nama')).toHaveValue('Asha Lewat-Nginx');
  await panel.getByLabel('Nomor telepon').fill('+62 812 3456 7890');
  await panel.getByLabel('Pesan').fill('Tolong hubungi saya.');
  await panel.getByRole('button', { name: 'Kirim pesan' }).click();
  await expect(page).toHaveURL(`${url}/contact?sent=1&type=2#contact`);
  await expect(page.getByRole('status')).toHaveText('Terima kasih. Pesan Anda sudah kami terima, dan kami akan menghubungi Anda.');
  await context.close();
  // nginx's own cap on the body, below the Node server's 64 KB.
  const tooLarge = await request.post(`${url}/contact`, { headers: { Origin: url }, form: { name: 'x'.repeat(70 * 1024) }, maxRedirects: 0 });
  expect(tooLarge.status()).toBe(413);
});

test("a section added at run time shows through nginx, its origin entering and leaving the page's CSP, with no nginx regeneration", async ({
  page,
  request,
}) => {
  // The example calculator, published by its team from an origin of its own.
  // A bound for a busy machine, not a pace: four runs of the release command (each a tsx start) and a publish's
  // checks (a render in the sandbox) took 33 s of the default 30 beside three other builds.
  test.setTimeout(120_000);
  const upload = await serveUnderPath(path.join(REPO_ROOT, 'examples/remote-calculator/dist'), '/calculator/v1/', upstreamPort + 10);
  const origin = new URL(upload.url).origin;
  const policy = async () => (await request.get(`${url}/`)).headers()['content-security-policy'] ?? '';
  try {
    await release('section', 'add', 'calculator', '--label', 'en=Repayments', '--label', 'id=Cicilan', '--origin', origin, '--interactive');
    const published = await release('publish', 'calculator', `${upload.url}mf-manifest.json`);
    await release('activate', 'calculator', /calculator-\d+/.exec(published)![0]);
    await expect.poll(policy, { timeout: 15_000 }).toContain(origin);
    await page.goto(`${url}/?type=2#calculator`);
    await expect(page.getByRole('tab', { name: 'Cicilan' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Cicilan' }).getByRole('textbox', { name: 'Jumlah pinjaman' })).toBeVisible();

    await release('section', 'hide', 'calculator');
    await expect.poll(policy, { timeout: 15_000 }).not.toContain(origin);
    await page.goto('about:blank');
    await page.goto(`${url}/#calculator`);
    await expect(page.getByRole('tab')).toHaveText(['Home', 'About Us', 'Contact us']);
  } finally {
    await upload.close();
  }
});

test('with the Node server stopped, nginx serves the client-rendered page and the site still composes', async ({ page, request }) => {
  serve!.child.kill('SIGTERM');
  await serve!.exited;
  const answer = await request.get(`${url}/`);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['cache-control']).toBe('no-cache');
  expect(answer.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(await (await request.get(`${url}/robots.txt`)).text()).toContain('Allow: /');

  await page.goto(url);
  await expect(page).toHaveTitle('Portico Credit');
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
});
