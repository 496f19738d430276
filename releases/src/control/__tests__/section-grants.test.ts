import type { SectionGrant } from '@portico/contract/sections';
import { eventually } from '@portico/testing/eventually';
import type { PublishChecks } from '../../release';
import { controlApiForFile } from './control-api-on-test-store';

// Whether a section may run script in the visitor's browser is the
// integrator's decision (issue 46): set through the control API or
// `npm run release -- grant`, never by the section's own token, audited,
// announced to every server, and what each publish is checked against.

const OWNER = 'the-integrator-token';
/** The grant each publish was checked against, as the route handed it to the checks. */
const checkedWith: (SectionGrant | undefined)[] = [];
const checks: PublishChecks = ({ grant }) => {
  checkedWith.push(grant);
  return Promise.resolve({ ok: true, checks: [], manifest: { integrity: `sha384-${checkedWith.length}`, version: '1.0.0', buildId: 'b' } });
};

const control = controlApiForFile('grants', { owner: OWNER, publishChecks: checks }, ['home']);
const { call, release } = control;
const homeToken = () => control.token('home');

test('the built-in grants: Home and About static, Contact interactive; each publish is checked against its section’s', async () => {
  const sections = (await call('GET', '/api/sections', OWNER)).body as Record<string, { interactive: boolean }>;
  expect(Object.fromEntries(Object.entries(sections).map(([id, section]) => [id, section.interactive]))).toEqual({ home: false, about: false, contact: true });
  await call('POST', '/api/releases', homeToken(), { section: 'home', manifestUrl: 'https://cdn.example/home/1/mf-manifest.json' });
  expect(checkedWith.at(-1)).toEqual({ interactive: false });
});

test("a section's own token cannot grant its builds script: 403, nothing changed, nothing audited", async () => {
  const refused = await call('PATCH', '/api/sections/home', homeToken(), { interactive: true });
  expect(refused.status).toBe(403);
  expect(refused.body.error).toContain("may not change a section's grant");
  expect((await control.store.grants.all()).home).toEqual({ interactive: false });
  expect((await control.store.audit.list()).filter((entry) => entry.action === 'section-change')).toEqual([]);
});

test('the integrator grants and withdraws script, audited and announced; the next publish is checked against it', async () => {
  const changes: string[] = [];
  const watch = await control.store.watch((section) => changes.push(section), { pollMs: 60_000 });
  try {
    const granted = await call('PATCH', '/api/sections/home', OWNER, { interactive: true, note: 'the calculator' });
    // The grant's answer as before, now with the rest of the section's entry beside it (sections as data).
    expect(granted).toMatchObject({ status: 200, body: { section: 'home', interactive: true, builtIn: true } });
    expect((await control.store.releases.served()).grants).toEqual({ home: { interactive: true } });
    await call('POST', '/api/releases', homeToken(), { section: 'home', manifestUrl: 'https://cdn.example/home/2/mf-manifest.json' });
    expect(checkedWith.at(-1)).toEqual({ interactive: true });

    const withdrawn = await release('grant', 'home', 'static');
    expect(withdrawn).toMatchObject({ code: 0, out: "home: static, none of its script runs in the visitor's browser\n" });
    expect((await control.store.grants.all()).home).toEqual({ interactive: false });
    const audited = (await control.store.audit.list()).filter((entry) => entry.action === 'section-change');
    expect(audited.map(({ actor, section, detail }) => ({ actor, section, detail }))).toEqual([
      { actor: 'environment', section: 'home', detail: 'from interactive (script in the browser) to static (no script in the browser)' },
      { actor: 'environment', section: 'home', detail: 'from static (no script in the browser) to interactive (script in the browser): the calculator' },
    ]);
    // Every server hears a change of grant as it hears an activation.
    await eventually(() => changes.includes('home'));
  } finally {
    await watch.close();
  }
});

test('`npm run release -- grant` takes interactive or static only', async () => {
  expect(await release('grant', 'home', 'yes')).toMatchObject({ code: 2, err: expect.stringContaining('grant takes <section> interactive|static') });
  expect(await release('grant', 'nowhere', 'static')).toMatchObject({ code: 1, err: expect.stringContaining('no section "nowhere"') });
});
