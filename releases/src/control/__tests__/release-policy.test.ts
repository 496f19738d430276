import { controlApiForFile, passingChecks } from './control-api-on-test-store';

// A per-section release policy the integrator sets (issue 49): how far the
// section's own token may take a release alone. Each refusal below was
// checked to fail before the policy: the section token's canary, activation,
// promotion and rollback all answered 200.

const OWNER = 'the-integrator-token';
const checks = passingChecks();
const control = controlApiForFile('policy', { owner: OWNER, publishChecks: checks.checks }, ['home']);
const { call, release } = control;
const homeToken = () => control.token('home');
const publish = async (token = homeToken()) => {
  const answer = await call('POST', '/api/releases', token, {
    section: 'home',
    manifestUrl: `https://cdn.example/home/${checks.passed() + 1}/mf-manifest.json`,
  });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
};
const setPolicy = (policy: string) => call('PATCH', '/api/sections/home', OWNER, { policy, note: 'issue 49' });

test('the default is today’s: a section token activates, canaries, promotes and rolls back its own section', async () => {
  const sections = (await call('GET', '/api/sections', OWNER)).body as Record<string, { policy: string }>;
  expect(Object.values(sections).map((section) => section.policy)).toEqual(['activate', 'activate', 'activate']);
  const first = await publish();
  expect((await call('POST', '/api/sections/home/active', homeToken(), { release: first })).status).toBe(200);
  const next = await publish();
  expect((await call('POST', '/api/sections/home/canary', homeToken(), { release: next, percent: 10, promoteAfterVisits: 100 })).status).toBe(200);
  expect((await call('POST', '/api/sections/home/canary/promote', homeToken(), {})).status).toBe(200);
  expect((await call('POST', '/api/sections/home/rollback', homeToken(), {})).status).toBe(200);
});

test('"publish": the team publishes and previews alone; a canary, an activation, a promotion and a rollback are 403 naming the policy', async () => {
  const set = await setPolicy('publish');
  expect(set).toMatchObject({ status: 200, body: { section: 'home', policy: 'publish' } });
  const [entry] = await control.store.audit.list({ sections: ['home'], limit: 1 });
  expect(entry).toMatchObject({
    actor: 'environment',
    action: 'section-change',
    detail: 'release policy from "activate" to "publish" (its own token may publish and preview): issue 49',
  });
  const candidate = await publish();
  expect((await call('POST', `/api/releases/${candidate}/preview`, homeToken(), {})).status).toBe(201);
  for (const [route, body, what] of [
    ['/api/sections/home/canary', { release: candidate, percent: 10 }, 'start a canary of home'],
    ['/api/sections/home/active', { release: candidate }, 'activate a release of home'],
    ['/api/sections/home/rollback', {}, 'roll back home'],
  ] as const) {
    const refused = await call('POST', route, homeToken(), body);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(
      `the token ci-home may not ${what} alone: home's release policy is "publish" (its own token may publish and preview); an integrator token does this, or sets the policy (npm run release -- policy home <publish|canary|activate>)`,
    );
  }
  expect((await control.store.releases.served()).canaries.home).toBeUndefined();
  // The integrator is not held by the policy.
  expect((await call('POST', '/api/sections/home/active', OWNER, { release: candidate })).status).toBe(200);
});

test('"canary": the team runs and aborts a canary, but one that promotes itself, a promotion and an activation are the integrator’s', async () => {
  expect((await setPolicy('canary')).status).toBe(200);
  const candidate = await publish();
  const selfPromoting = await call('POST', '/api/sections/home/canary', homeToken(), { release: candidate, percent: 10, promoteAfterVisits: 100 });
  expect(selfPromoting.status).toBe(403);
  expect(selfPromoting.body.error).toContain('may not start a canary of home that promotes itself (--promote-after) alone');
  expect((await call('POST', '/api/sections/home/canary', homeToken(), { release: candidate, percent: 10 })).status).toBe(200);
  const promote = await call('POST', '/api/sections/home/canary/promote', homeToken(), {});
  expect(promote.status).toBe(403);
  expect(promote.body.error).toContain(`home's release policy is "canary" (its own token may publish, preview and run a canary)`);
  expect((await call('DELETE', '/api/sections/home/canary', homeToken())).status).toBe(200);
  expect((await call('POST', '/api/sections/home/active', homeToken(), { release: candidate })).status).toBe(403);
});

test('only the integrator sets a policy; a level the API does not know is 400 naming the field', async () => {
  const refused = await call('PATCH', '/api/sections/home', homeToken(), { policy: 'activate' });
  expect(refused.status).toBe(403);
  expect((await control.store.sections.get('home'))?.policy).toBe('canary');
  const bad = await setPolicy('everything');
  expect(bad.status).toBe(400);
  expect(bad.body.field).toBe('policy');
});

test('`npm run release -- policy` shows and sets it; `section set --policy` too', async () => {
  expect(await release('policy', 'home', 'publish')).toMatchObject({ code: 0, out: 'home: release policy publish, its own token may publish and preview\n' });
  expect(await release('policy')).toMatchObject({
    code: 0,
    out:
      'home: release policy publish, its own token may publish and preview\n' +
      'about: release policy activate, its own token may publish, preview, run a canary, activate, promote and roll back\n' +
      'contact: release policy activate, its own token may publish, preview, run a canary, activate, promote and roll back\n',
  });
  const set = await release('section', 'set', 'home', '--policy', 'activate');
  expect(set).toMatchObject({ code: 0, out: expect.stringContaining('release policy activate') });
  expect(await release('policy', 'home', 'all')).toMatchObject({ code: 1, err: expect.stringContaining('policy') });
});
