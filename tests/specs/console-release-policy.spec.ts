import type { APIRequestContext, Page } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { consoleOrigin, signIn } from '../support/console';
import { startServer, stop, TOKEN } from '../support/console-server';
import { expect, test } from '../support/fixtures';

// Issue 49, section teams: the integrator sets a section's release policy on
// its page (it could only be read there; `npm run release -- policy` set
// it), in English and in Indonesian; the section's own token is then refused
// or allowed by the API accordingly, and sees the policy with no control.
// Checked to fail before: no "Release policy of Contact us" form.

/** A section token's call on the control API itself, as its CI would make it. */
const asTeam = (request: APIRequestContext, port: number, token: string) => ({
  publish: (manifestUrl: string) =>
    request.post(`${consoleOrigin(port)}/api/releases`, { data: { section: 'contact', manifestUrl }, headers: { Authorization: `Bearer ${token}` } }),
  activate: (release: string) =>
    request.post(`${consoleOrigin(port)}/api/sections/contact/active`, { data: { release }, headers: { Authorization: `Bearer ${token}` } }),
});

async function choosePolicy(page: Page, form: string, choice: RegExp, save: string) {
  const policy = page.getByRole('form', { name: form });
  // As a person does: a click on the choice's words (react-aria-components keeps the input itself out of sight, under its label).
  const radio = policy.getByRole('radio', { name: choice });
  await policy
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: choice }) })
    .click();
  await expect(radio).toBeChecked();
  await policy.getByRole('button', { name: save }).click();
}

test("the integrator sets Contact's release policy in the console, in English and in Indonesian; the team's token is refused, then allowed, and sees no control", async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const server = await startServer(testInfo.parallelIndex);
  const { port, upload, release } = server;
  try {
    const teamToken = /^[A-Za-z0-9_-]{40,}$/m.exec(await release('token', 'create', 'contact-team', '--section', 'contact'))![0];
    const team = asTeam(request, port, teamToken);

    await signIn(page, port, TOKEN);
    await page.goto(`${consoleOrigin(port)}/#/sections/contact`);
    await expect(page.getByRole('heading', { name: 'Contact us', level: 1 })).toBeVisible();
    // Narrowing asks nothing: the outcome is said at once in the form's status region.
    await choosePolicy(page, 'Release policy of Contact us', /^Publish and preview/, 'Set release policy');
    await expect(page.getByRole('form', { name: 'Release policy of Contact us' }).getByRole('status')).toHaveText(
      'Contact us: release policy “Publish and preview”: its own token may publish and preview; canaries and activations are the integrator’s.',
    );
    expect(await axeViolations(page), 'the release policy set, English').toEqual([]);

    // The team publishes alone, and may not activate what it published.
    const published = await team.publish(`${upload.url}mf-manifest.json`);
    expect(published.status()).toBe(201);
    const { id } = (await published.json()) as { id: string };
    const refused = await team.activate(id);
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain('release policy is "publish"');

    // Widening asks first, in Indonesian; the dialog passes axe open.
    await page.getByRole('button', { name: 'Bahasa Indonesia' }).click();
    await choosePolicy(page, 'Kebijakan rilis Hubungi Kami', /^Semuanya, termasuk aktivasi/, 'Tetapkan kebijakan rilis');
    const dialog = page.getByRole('dialog', { name: 'Tetapkan kebijakan rilis' });
    await expect(dialog).toContainText('Ini memperluas apa yang boleh dilakukan tim Hubungi Kami sendiri, tanpa bertanya kepada integrator');
    expect(await axeViolations(page), 'the widening confirmation, Indonesian').toEqual([]);
    await dialog.getByRole('button', { name: 'Konfirmasi' }).click();
    await expect(page.getByRole('form', { name: 'Kebijakan rilis Hubungi Kami' }).getByRole('status')).toHaveText(
      /^Hubungi Kami: kebijakan rilis “Semuanya, termasuk aktivasi”: tokennya sendiri boleh menerbitkan, mempratinjau, menjalankan canary, mengaktifkan/,
    );
    expect(await axeViolations(page), 'the release policy set, Indonesian').toEqual([]);
    expect((await team.activate(id)).status()).toBe(200);

    // The team's own console: the policy in words, no control to change it, in both languages.
    const teamPage = await (await browser.newContext()).newPage();
    await signIn(teamPage, port, teamToken);
    await teamPage.goto(`${consoleOrigin(port)}/#/sections/contact`);
    const settings = teamPage.getByRole('region', { name: 'Section settings' });
    await expect(settings).toContainText('activate: its own token may publish, preview, run a canary, activate, promote and roll back');
    await expect(teamPage.getByRole('radio')).toHaveCount(0);
    await expect(teamPage.getByRole('button', { name: 'Set release policy' })).toHaveCount(0);
    await teamPage.getByRole('button', { name: 'Bahasa Indonesia' }).click();
    await expect(teamPage.getByRole('region', { name: 'Pengaturan bagian' })).toContainText('Kebijakan rilis');
    await expect(teamPage.getByRole('radio')).toHaveCount(0);
    await teamPage.context().close();
  } finally {
    await stop(server);
  }
});
