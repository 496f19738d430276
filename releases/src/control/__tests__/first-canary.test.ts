import { controlApiForFile, passingChecks } from './control-api-on-test-store';

// A section's very first release can be canaried (issue 49, section teams):
// the baseline is what visitors get today, config.json's URL. Checked to
// fail before the change: 409 "home has no active release to judge a canary
// against: activate one first".

const OWNER = 'the-integrator-token';
const checks = passingChecks();
const control = controlApiForFile('first-canary', {
  owner: OWNER,
  publishChecks: checks.checks,
  // What config.json gives the built-in sections; an added one has no URL there.
  configuredRemotes: () => Promise.resolve({ home: 'http://localhost:8081/mf-manifest.json' }),
});
const { call } = control;
const publish = async (section: string) =>
  (await call('POST', '/api/releases', OWNER, { section, manifestUrl: `https://cdn.example/${section}/${checks.passed() + 1}/mf-manifest.json` })).body
    .id as string;

test('a first release is canaried beside config.json’s URL, shown beside it, and an abort leaves config.json’s URL', async () => {
  const first = await publish('home');
  const started = await call('POST', '/api/sections/home/canary', OWNER, { release: first, percent: 10 });
  expect(started.status).toBe(200);
  expect(started.body).toMatchObject({ active: null, candidate: { id: first }, configured: 'http://localhost:8081/mf-manifest.json' });
  expect((await control.store.releases.served()).canaries.home?.release.id).toBe(first);
  const aborted = await call('DELETE', '/api/sections/home/canary', OWNER);
  expect(aborted).toMatchObject({ status: 200, body: { active: null } });
  expect(aborted.body).not.toHaveProperty('candidate');
});

test('an added section with no URL in config.json has nothing to be judged against: 409 naming what to do', async () => {
  expect(
    (await call('POST', '/api/sections', OWNER, { id: 'careers', labels: { en: 'Careers', id: 'Karier' }, origins: ['https://cdn.example'] })).status,
  ).toBe(201);
  const first = await publish('careers');
  const refused = await call('POST', '/api/sections/careers/canary', OWNER, { release: first, percent: 10 });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toContain('careers has no active release and no URL in config.json (remotes.careers)');
  expect((await control.store.canaries.running()).careers).toBeUndefined();
});

test('`npm run release -- canary` says the first release runs beside config.json’s URL, and `status` shows both rows', async () => {
  const first = await publish('home');
  const started = await control.release('canary', 'home', first, '--percent', '20');
  expect(started).toMatchObject({
    code: 0,
    out: expect.stringContaining(`home: ${first} (build b${checks.passed()}) serves 20 % of visits beside config.json's URL (no release is active)`),
  });
  const { out } = await control.release('status');
  expect(out).toMatch(/^home +config\.json +http:\/\/localhost:8081\/mf-manifest\.json/m);
  expect(out).toMatch(new RegExp(`^ +canary +${first} `, 'm'));
  await call('DELETE', '/api/sections/home/canary', OWNER);
});
