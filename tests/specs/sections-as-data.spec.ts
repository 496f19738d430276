import path from 'node:path';
import { expect, test, workerPorts, writeConfig } from '../support/fixtures';
import { REPO_ROOT } from '../support/paths';
import { runRelease, runServe, waitForOutput } from '../support/run-cli';
import { serveUnderPath } from '../support/static-server';

const TOKEN = 'the-integrators-ci-token';
const CALCULATOR_DIST = path.join(REPO_ROOT, 'examples/remote-calculator/dist');

// Sections as data (issue 48), the way a fourth team ships with no host
// build or deploy: the integrator adds the section, the team publishes the
// example calculator from an origin of its own, previews it, activates it;
// then the integrator relabels, moves, hides, shows and retires it, each
// live on the running server. Port slots 14 (the server, the control API
// after it) and 18 (the team's static host), as releases.spec.ts.

test('a new team adds its section and ships it, then the integrator relabels, moves, hides, shows and retires it, all with no restart', async ({
  page,
  request,
}, testInfo) => {
  const port = workerPorts(testInfo.parallelIndex, 14);
  const upload = await serveUnderPath(CALCULATOR_DIST, '/calculator/v1/', workerPorts(testInfo.parallelIndex, 18));
  const site = `http://localhost:${port}`;
  const serve = runServe({ PORT: String(port), PORTICO_CONFIG: writeConfig(port), PORTICO_CONTROL_TOKEN: TOKEN });
  const release = (...args: string[]) => runRelease(args, { port, token: TOKEN });
  const tabs = () => page.getByRole('tablist').getByRole('tab');
  /** Reloads until the tabs read `names`: every change is live within a read of the store, with no restart. */
  const expectTabs = async (names: string[], address = `${site}/`) => {
    await expect(async () => {
      // Away first: going to an address that differs from the page's only by its hash would not load it again.
      await page.goto('about:blank');
      await page.goto(address);
      await expect(tabs()).toHaveText(names, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
  };
  try {
    await waitForOutput(serve);
    const origin = new URL(upload.url).origin;
    await release('section', 'add', 'calculator', '--label', 'en=Repayments', '--label', 'id=Cicilan', '--origin', origin, '--after', 'about', '--interactive');
    const published = await release('publish', 'calculator', `${upload.url}mf-manifest.json`);
    const first = /calculator-\d+/.exec(published)![0];

    // Listed but never activated: not shown, and no request goes to its origin.
    const requested: string[] = [];
    // Scripts loaded to run (a `<link rel=prefetch>` of the page's idle fetch-ahead is another resource type: fetched, never run).
    const scripts: string[] = [];
    page.on('request', (asked) => {
      requested.push(asked.url());
      if (asked.resourceType() === 'script') scripts.push(asked.url());
    });
    await page.goto(`${site}/`);
    await expect(tabs()).toHaveText(['Home', 'About Us', 'Contact us']);
    expect(requested.filter((url) => url.startsWith(origin))).toEqual([]);

    // The preview link shows the new tab to whoever opens it, before anyone else.
    const link = (await release('preview', first)).split('\n')[0]!;
    await page.goto(link);
    await expect(tabs()).toHaveText(['Home', 'About Us', 'Repayments', 'Contact us']);

    await release('activate', 'calculator', first);
    await expectTabs(['Home', 'About Us', 'Repayments', 'Contact us']);

    // Server-rendered like the others: the form is in the HTML the server sends.
    const html = await (await request.get(`${site}/`)).text();
    expect(html).toContain('Loan amount');

    // Deep-linkable, and it works: the total to repay in the market's currency.
    requested.length = 0;
    scripts.length = 0;
    await page.goto(`${site}/#calculator`);
    const panel = page.getByRole('tabpanel', { name: 'Repayments' });
    await expect(page.getByRole('tab', { name: 'Repayments' })).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByRole('textbox', { name: 'Loan amount' })).toBeVisible();
    // An island that hydrates when used: shown, server-rendered, none of its code loaded to run until then
    // (fetched ahead when the page is idle, at the lowest priority: decisions/islands.md).
    expect(scripts.filter((url) => url.startsWith(origin))).toEqual([]);
    await panel.getByRole('textbox', { name: 'Loan amount' }).fill('10000');
    await panel.getByRole('textbox', { name: 'Term (days)' }).fill('30');
    await expect(panel).toContainText('₹');
    await expect.poll(() => requested.filter((url) => url.startsWith(origin) && url.endsWith('.js')).length, { timeout: 10_000 }).toBeGreaterThan(0);

    // Indonesian: the label and the section's own texts in the page's language.
    await page.goto(`${site}/?type=2#calculator`);
    await expect(page.getByRole('tab', { name: 'Cicilan' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Cicilan' }).getByRole('textbox', { name: 'Jumlah pinjaman' })).toBeVisible();

    // Relabelled and moved first.
    await release('section', 'set', 'calculator', '--label', 'en=Repay', '--label', 'id=Bayar', '--first');
    await expectTabs(['Repay', 'Home', 'About Us', 'Contact us']);

    // Hidden: its tab and its anchor are gone; a stale #calculator lands on the first tab.
    await release('section', 'hide', 'calculator');
    await expectTabs(['Home', 'About Us', 'Contact us'], `${site}/#calculator`);
    await expect(page.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('#calculator')).toHaveCount(0);

    await release('section', 'show', 'calculator');
    await expectTabs(['Repay', 'Home', 'About Us', 'Contact us']);

    // Retired: gone for good, its preview link no longer shows it.
    await release('section', 'retire', 'calculator');
    await expectTabs(['Home', 'About Us', 'Contact us']);
    await page.goto(link);
    await expect(tabs()).toHaveText(['Home', 'About Us', 'Contact us']);
    await expect(page.getByRole('complementary', { name: 'Release preview' })).not.toContainText(first);
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
    await upload.close();
  }
});
