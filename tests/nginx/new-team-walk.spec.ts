import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { postgresMissing, postgresRequired, startTestPostgres } from '@portico/platform/testing';
import { wiredRoot } from '@portico/testing/wired-root';
import { REPO_ROOT } from '../support/paths';
import { runRelease, runServe, waitForOutput } from '../support/run-cli';
import { serveUnderPath } from '../support/static-server';

/**
 * Issue 48's "Done when": a new team's whole path, as README's "A new section
 * team" walks it, on two `npm run serve` servers that share one PostgreSQL
 * database behind the nginx run.sh generated with both as upstreams. The
 * team scaffolds a hyphenated, interactive section into a temporary root
 * wired to the repository (the repository's tree and package.json are left
 * as they were) and builds it; its dist/ is served as a CDN would. Then the
 * integrator adds it and makes the team's token, the team publishes with
 * that token and previews, the integrator activates, and the tab is checked
 * on each server directly and through nginx (two requests in a row: nginx
 * takes turns), in both languages, by its anchor; then relabelled, moved
 * first, hidden, shown and retired, each on both servers.
 */
const url = process.env.PORTICO_NGINX_URL ?? '';
const configPath = process.env.PORTICO_NGINX_CONFIG ?? '';
const ports = [Number(process.env.PORTICO_NGINX_UPSTREAM_PORT ?? 0), Number(process.env.PORTICO_NGINX_SECOND_UPSTREAM_PORT ?? 0)];
const run = promisify(execFile);

const ID = 'team-faq';
const OWNER = 'the-integrators-walk-token';
const BUILT_IN = ['Home', 'About Us', 'Contact us'];

/** A server-rendered page's tabs, as the HTML names them (section-tabs.tsx: each label in a <bdi>). */
const TAB = /role="tab"[^>]*><bdi>([^<]*)<\/bdi>/g;

/**
 * Waits until each server directly, and nginx twice in a row (so each of its
 * upstreams once), serves a page whose tabs read `names`: every change is
 * live on every server with no restart (within 2 s, which the store's
 * two-server test measures; here a bound for a busy machine).
 */
async function everywhere(request: APIRequestContext, names: string[]): Promise<void> {
  const tabsAt = async (base: string) => [...(await (await request.get(`${base}/`)).text()).matchAll(TAB)].map((match) => match[1]);
  const bases = [...ports.map((port) => `http://127.0.0.1:${port}`), url, url];
  await expect.poll(() => Promise.all(bases.map(tabsAt)), { timeout: 15_000 }).toEqual(bases.map(() => names));
}

test("a new team's whole path on two servers behind nginx: scaffold, build, add, token, publish, preview, activate, both languages, deep link, relabel, move, hide, show, retire", async ({
  page,
  request,
}) => {
  if (!url || !configPath || !ports[1]) throw new Error('run through `npm run test:nginx`, which starts nginx');
  const missing = postgresMissing();
  test.skip(missing !== undefined && !postgresRequired(), `two servers on one database need PostgreSQL: ${missing}`);
  // A bound for a busy 2-core machine (a production build, two servers' start, a database), not a pace.
  test.setTimeout(10 * 60_000);
  const packageJson = readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8');
  const wired = await wiredRoot(REPO_ROOT);
  const postgres = startTestPostgres();
  const servers = ports.map((port) =>
    runServe({
      PORT: String(port),
      HOST: '127.0.0.1',
      PORTICO_CONFIG: configPath,
      DATABASE_URL: postgres.url,
      PORTICO_TRUST_PROXY: '1',
      PORTICO_CONTROL_TOKEN: OWNER,
      // nginx passes on the Host the browser wrote, port included; 127.0.0.1 alone is each server's own port.
      PORTICO_HOSTS: `127.0.0.1:${new URL(url).port},127.0.0.1`,
      // The preview links are built on it, and the publish checks fetch as a page there would.
      PORTICO_PUBLIC_URL: url,
    }),
  );
  let upload: Awaited<ReturnType<typeof serveUnderPath>> | undefined;
  try {
    // 1-2. Scaffold and build, as the team does, while the servers start.
    const started = Date.now();
    await run('npm', ['run', 'section:new', '--', ID, '--interactive', '--no-link'], { cwd: wired.root });
    await run('npm', ['run', 'build', '-w', `@portico/remote-${ID}`], { cwd: wired.root, timeout: 5 * 60_000 });
    process.stderr.write(`new-team-walk: section:new and its build took ${Math.round((Date.now() - started) / 1000)} s\n`);
    upload = await serveUnderPath(path.join(wired.root, `remote-${ID}/dist`), `/${ID}/1/`, ports[0]! + 11);
    const origin = new URL(upload.url).origin;
    await Promise.all(servers.map((server) => waitForOutput(server)));
    const integrator = (...args: string[]) => runRelease(args, { port: ports[0]!, token: OWNER });

    // 3-4. The integrator adds it (with the script grant an island needs) and makes the team's token.
    await integrator('section', 'add', ID, '--label', 'en=Team FAQ', '--label', 'id=Tanya Tim', '--origin', origin, '--after', 'about', '--interactive');
    const teamToken = (await integrator('token', 'create', `ci-${ID}`, '--section', ID)).trim();
    // The team's CI talks to the other server's control API: one store.
    const team = (...args: string[]) => runRelease(args, { port: ports[1]!, token: teamToken });

    // 5. Published with the team's own token, through every check; listed, never activated: shown nowhere.
    const published = await team('publish', ID, `${upload.url}mf-manifest.json`);
    const first = new RegExp(`${ID}-\\d+`).exec(published)![0];
    await everywhere(request, BUILT_IN);

    // 6. The preview link (on nginx's origin) shows the new tab to whoever opens it, on either server.
    const link = (await team('preview', first)).split('\n')[0]!;
    expect(link.startsWith(`${url}/`)).toBe(true);
    const tabs = page.getByRole('tablist').getByRole('tab');
    await page.goto(link);
    await expect(tabs).toHaveText(['Home', 'About Us', 'Team FAQ', 'Contact us']);

    // 7. Activated: on both servers, directly and through nginx.
    await integrator('activate', ID, first);
    await everywhere(request, ['Home', 'About Us', 'Team FAQ', 'Contact us']);

    // Its anchor opens it, server-rendered; it is an island that hydrates when used.
    await page.goto('about:blank');
    await page.goto(`${url}/#${ID}`);
    const panel = page.getByRole('tabpanel', { name: 'Team FAQ' });
    await expect(page.getByRole('tab', { name: 'Team FAQ' })).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByRole('heading', { name: 'Team faq' })).toBeVisible();
    await panel.getByRole('textbox', { name: 'Your name' }).fill('Ana');
    await expect(panel.getByRole('status')).toHaveText('Hello, Ana.');

    // The other language, by the nav's switch: its label and the section's own texts.
    await page.getByRole('group', { name: 'Language' }).getByRole('link', { name: 'Bahasa Indonesia' }).click();
    await expect(page.getByRole('tab', { name: 'Tanya Tim' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Tanya Tim' }).getByRole('textbox', { name: 'Nama Anda' })).toBeVisible();

    // Relabelled and moved first ("after": null), then hidden, shown, each on both servers.
    await integrator('section', 'set', ID, '--label', 'en=Questions', '--label', 'id=Pertanyaan', '--first');
    await everywhere(request, ['Questions', 'Home', 'About Us', 'Contact us']);
    await integrator('section', 'hide', ID);
    await everywhere(request, BUILT_IN);
    // A stale anchor lands on the first tab.
    await page.goto('about:blank');
    await page.goto(`${url}/#${ID}`);
    await expect(page.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator(`#${ID}`)).toHaveCount(0);
    await integrator('section', 'show', ID);
    await everywhere(request, ['Questions', 'Home', 'About Us', 'Contact us']);

    // Retired: gone from both servers for good; its preview link shows nothing of it, its token no longer works.
    await integrator('section', 'retire', ID);
    await everywhere(request, BUILT_IN);
    await page.goto(link);
    await expect(tabs).toHaveText(BUILT_IN);
    await expect(team('preview', first)).rejects.toThrow('the token is unknown or revoked');

    // The repository is as it was: the scaffold wrote only in its temporary root.
    expect(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).toBe(packageJson);
    expect(existsSync(path.join(REPO_ROOT, `remote-${ID}`))).toBe(false);
  } finally {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    await upload?.close();
    postgres.destroy();
    await wired.remove();
  }
});
