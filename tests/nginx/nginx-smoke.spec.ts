import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseConfig } from '@portico/shared-config/config';
import { CACHE_IMMUTABLE, COMMON_HEADERS, contentSecurityPolicy, CROSS_ORIGIN_HEADERS, DATA_CSP, hostPageHeaders } from '@portico/server';
import { APP_DIRS } from '@portico/contract/sections';
import { REPO_ROOT } from '../support/paths';

const url = process.env.PORTICO_NGINX_URL ?? '';
const configPath = process.env.PORTICO_NGINX_CONFIG ?? '';
const port = Number(new URL(url || 'http://x:1').port);
const origin = (offset: number) => `http://127.0.0.1:${port + offset}`;
const builtFile = (app: keyof typeof APP_DIRS, pattern: RegExp) => readdirSync(path.join(REPO_ROOT, APP_DIRS[app], 'dist')).find((file) => pattern.test(file))!;

test.beforeAll(() => {
  if (!url || !configPath) throw new Error('run through `npm run test:nginx`, which starts nginx');
});

test('the site composes behind nginx: three sections, no CSP violation, no console error', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(url);
  await expect(page).toHaveTitle('Portico Credit');
  await expect(page.getByRole('heading', { name: 'A personal loan in three steps' })).toBeVisible();
  await page.getByRole('tab', { name: 'About Us' }).click();
  await expect(page.getByRole('tabpanel', { name: 'About Us' }).getByRole('heading', { name: 'About Us' })).toBeVisible();
  await page.getByRole('tab', { name: 'Contact us' }).click();
  await page.getByRole('tabpanel', { name: 'Contact us' }).getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please provide complete information!' })).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  expect(errors).toEqual([]);
});

test('nginx sends the headers `npm run serve` sends', async ({ request }) => {
  const config: unknown = JSON.parse(readFileSync(configPath, 'utf8'));
  const page = (await request.get(`${url}/`)).headers();
  for (const [name, value] of Object.entries(hostPageHeaders(parseConfig(config)))) expect(page[name.toLowerCase()], name).toBe(value);
  // Code from the origins of the sections granted script (all three: run.sh's config.json grants Home and About, as nginx's page is
  // rendered in the browser) and the override origin.
  expect(page['content-security-policy']).toBe(
    contentSecurityPolicy(
      [origin(1), origin(2), origin(3), 'https://staging.portico.example'],
      [origin(1), origin(2), origin(3), 'https://staging.portico.example'],
    ),
  );
  expect(page['cache-control']).toBe('no-cache');
  expect(page.etag).toBeDefined();

  const notFound = await request.get(`${url}/nope`);
  expect(notFound.status()).toBe(404);
  expect(notFound.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(notFound.headers()['content-security-policy']).toBe(page['content-security-policy']);
  expect(await notFound.text()).toContain('<a href="/">');

  const configJson = await request.get(`${url}/config.json`);
  expect(await configJson.json()).toEqual(config);
  expect(configJson.headers()['content-security-policy']).toBe(DATA_CSP);
  expect(configJson.headers()['cache-control']).toBe('no-cache');
  expect(configJson.headers()['access-control-allow-origin']).toBeUndefined();

  const method = await request.post(`${url}/index.html`);
  expect(method.status()).toBe(405);
  expect(method.headers().allow).toBe('GET, HEAD');
});

test('cache rules, precompressed files and CORS on the remotes only', async ({ request }) => {
  const hostChunk = await request.get(`${url}/${builtFile('host', /^main\.[0-9a-f]{10}\.js$/)}`, {
    headers: { 'Accept-Encoding': 'br, gzip' },
  });
  expect(hostChunk.headers()['cache-control']).toBe(CACHE_IMMUTABLE);
  expect(hostChunk.headers()['content-encoding']).toBe('br');
  expect(hostChunk.headers()['access-control-allow-origin']).toBeUndefined();
  for (const [name, value] of Object.entries(COMMON_HEADERS)) expect(hostChunk.headers()[name.toLowerCase()]).toBe(value);

  const exposed = `${origin(3)}/${builtFile('contact', /^__federation_expose_section\.[0-9a-f]{10}\.js$/)}`;
  const gzipped = await request.get(exposed, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzipped.headers()['content-encoding']).toBe('gzip');
  expect(gzipped.headers()['cache-control']).toBe(CACHE_IMMUTABLE);
  for (const [name, value] of Object.entries(CROSS_ORIGIN_HEADERS)) expect(gzipped.headers()[name.toLowerCase()]).toBe(value);

  for (const file of ['remoteEntry.js', 'mf-manifest.json']) {
    const answer = await request.get(`${origin(3)}/${file}`);
    expect(answer.headers()['cache-control'], file).toBe('no-cache');
    expect(answer.headers().etag, file).toBeDefined();
    expect(answer.headers()['access-control-allow-origin'], file).toBe('*');
  }

  for (const hidden of ['/.git/config', '/.env']) expect((await request.get(`${url}${hidden}`)).status(), hidden).toBe(404);
});
