import type { PublishChecks } from '../../release';
import { losingConnectionAt } from '../../store/__tests__/losing-connection';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi } from '../control-api';
import { controlApiForFile } from './control-api-on-test-store';
import { silentLogger } from '@portico/platform/logging';

// Sections as data through the control API and `npm run release -- section`
// (the product brief's table, "Sections as data"): the integrator adds,
// changes and retires sections; a section token of an added section
// publishes from its origins; a retired section's tokens and preview links
// stop working while its history stays. A hyphenated id throughout.

const OWNER = 'the-integrator-token';
/** What each publish was checked with, as the route handed it to the checks. */
const checked: Parameters<PublishChecks>[0][] = [];
const checks: PublishChecks = (request) => {
  checked.push(request);
  return Promise.resolve({ ok: true, checks: [], manifest: { integrity: `sha384-${checked.length}`, version: '1.0.0', buildId: `b${checked.length}` } });
};

const control = controlApiForFile('section-catalogue', { owner: OWNER, publishChecks: checks });
const { call, release } = control;

const CALCULATOR = { id: 'loan-calc', labels: { en: 'Calculator', id: 'Kalkulator' }, origins: ['https://cdn.example'], after: 'about' };

test('POST /api/sections: the integrator adds a section (201); GET /api/sections lists it with its entry beside what it answered before', async () => {
  const homeToken = (await control.store.tokens.create({ name: 'ci-home-add', section: 'home', actor: 'test' })).token;
  expect(await call('POST', '/api/sections', homeToken, { ...CALCULATOR, id: 'by-home' })).toMatchObject({ status: 403 });

  const added = await call('POST', '/api/sections', OWNER, { ...CALCULATOR, note: 'the repayment calculator' });
  expect(added).toEqual({
    status: 201,
    body: {
      section: 'loan-calc',
      id: 'loan-calc',
      labels: { en: 'Calculator', id: 'Kalkulator' },
      origins: ['https://cdn.example'],
      interactive: false,
      order: 2,
      markets: ['IN', 'ID'],
      hidden: false,
      builtIn: false,
      policy: 'activate',
    },
  });
  const sections = (await call('GET', '/api/sections', OWNER)).body as Record<string, Record<string, unknown>>;
  expect(Object.keys(sections)).toEqual(['home', 'about', 'loan-calc', 'contact']);
  expect(sections['loan-calc']).toMatchObject({ active: null, previous: null, health: {}, labels: CALCULATOR.labels, order: 2, builtIn: false, hidden: false });
  expect(sections.home).toMatchObject({ active: null, interactive: false, builtIn: true, labels: { en: 'Home', id: 'Beranda' }, order: 0 });

  expect(await call('POST', '/api/sections', OWNER, CALCULATOR)).toMatchObject({ status: 409, body: { field: 'id' } });
  expect(await call('POST', '/api/sections', OWNER, { ...CALCULATOR, id: 'static' })).toMatchObject({ status: 400, body: { field: 'id' } });
  expect(await call('POST', '/api/sections', OWNER, { ...CALCULATOR, id: 'no-label', labels: { en: 'x' } })).toMatchObject({
    status: 400,
    body: { field: 'labels.id' },
  });
  expect((await control.store.sections.list()).map((entry) => entry.id)).toEqual(['home', 'about', 'loan-calc', 'contact']);
  const [audited] = await control.store.audit.list({ sections: ['loan-calc'] });
  expect(audited).toMatchObject({
    action: 'section-add',
    actor: 'environment',
    detail: expect.stringMatching(/^added "Calculator" \/ "Kalkulator", after about, .*: the repayment calculator$/),
  });
});

test("an added section's token publishes from its origins only, with its grant; activation, canary and a lone rollback (409) as a built-in's", async () => {
  const token = (await control.store.tokens.create({ name: 'ci-loan-calc', section: 'loan-calc', actor: 'test' })).token;
  const published = await call('POST', '/api/releases', token, { section: 'loan-calc', manifestUrl: 'https://cdn.example/loan-calc/1/mf-manifest.json' });
  expect(published).toMatchObject({ status: 201, body: { section: 'loan-calc' } });
  expect(checked.at(-1)).toMatchObject({ section: 'loan-calc', origins: ['https://cdn.example'], grant: { interactive: false } });
  // A built-in section's origins stay config.json's (none handed over).
  await call('POST', '/api/releases', OWNER, { section: 'home', manifestUrl: 'https://cdn.example/home/1/mf-manifest.json' });
  expect(checked.at(-1)?.origins).toBeUndefined();

  expect(await call('POST', '/api/releases', token, { section: 'home', manifestUrl: 'https://cdn.example/home/2/mf-manifest.json' })).toMatchObject({
    status: 403,
  });
  expect(await call('POST', '/api/releases', OWNER, { section: 'no-such', manifestUrl: 'https://cdn.example/x/mf-manifest.json' })).toMatchObject({
    status: 404,
  });

  const first = published.body.id as string;
  expect(await call('POST', '/api/sections/loan-calc/active', token, { release: first })).toMatchObject({ status: 200, body: { active: { id: first } } });
  const rolledBack = await call('POST', '/api/sections/loan-calc/rollback', token, {});
  expect(rolledBack).toMatchObject({ status: 409, body: { error: expect.stringContaining('no release before') } });
  const second = (await call('POST', '/api/releases', token, { section: 'loan-calc', manifestUrl: 'https://cdn.example/loan-calc/2/mf-manifest.json' })).body
    .id;
  expect(await call('POST', '/api/sections/loan-calc/canary', token, { release: second, percent: 10 })).toMatchObject({ status: 200, body: { percent: 10 } });
  expect(await call('PATCH', '/api/sections/loan-calc', OWNER, { hidden: true })).toMatchObject({ status: 409, body: { field: 'hidden' } });
});

test('`npm run release -- section`: add, set, hide, show, each printed; a refusal names its flag', async () => {
  const added = await release(
    'section',
    'add',
    'faq-page',
    '--label',
    'en=FAQ',
    '--label',
    'id=Tanya Jawab',
    '--origin',
    'https://faq.example',
    '--market',
    'ID',
  );
  expect(added).toMatchObject({
    code: 0,
    out: 'faq-page: "FAQ" / "Tanya Jawab", place 5 in the nav, shown, static, markets ID, origins https://faq.example, release policy activate\n',
  });
  expect(await release('section', 'set', 'faq-page', '--first')).toMatchObject({ code: 0, out: expect.stringContaining('place 1 in the nav') });
  expect(await release('section', 'hide', 'faq-page')).toMatchObject({ code: 0, out: expect.stringContaining(', hidden,') });
  expect(await release('section', 'show', 'faq-page')).toMatchObject({ code: 0, out: expect.stringContaining(', shown,') });
  expect(await release('section', 'set', 'faq-page', '--label', 'en=Questions')).toMatchObject({
    code: 0,
    out: expect.stringContaining('"Questions" / "Tanya Jawab"'),
  });
  expect(await release('section', 'add', 'bad-origin', '--label', 'en=A', '--label', 'id=B', '--origin', 'https://x.example/path')).toMatchObject({
    code: 1,
    err: expect.stringContaining('--origin:'),
  });
  expect(await release('section', 'add', 'no-id-label', '--label', 'en=A', '--origin', 'https://x.example')).toMatchObject({
    code: 1,
    err: expect.stringContaining('--label:'),
  });
  expect(await release('section', 'set', 'faq-page', '--first', '--after', 'home')).toMatchObject({ code: 2 });
  expect(await release('section', 'retire', 'home')).toMatchObject({ code: 1, err: expect.stringContaining('never retired') });
  const audit = (await control.store.audit.list({ sections: ['faq-page' as never] })).map((entry) => entry.action);
  expect(audit).toEqual(['section-change', 'section-change', 'section-change', 'section-change', 'section-add']);
});

test('DELETE /api/sections/ID retires: its token is refused (401), its preview 409, it leaves GET /api/sections; its history stays; a built-in 409', async () => {
  const token = (await control.store.tokens.create({ name: 'ci-old-notice', section: 'old-notice' as never, actor: 'test' }).catch(() => undefined))?.token;
  expect(token).toBeUndefined();
  await call('POST', '/api/sections', OWNER, { id: 'old-notice', labels: { en: 'Notice', id: 'Pemberitahuan' }, origins: ['https://cdn.example'] });
  const noticeToken = (await control.store.tokens.create({ name: 'ci-old-notice', section: 'old-notice' as never, actor: 'test' })).token;
  const published = await call('POST', '/api/releases', noticeToken, { section: 'old-notice', manifestUrl: 'https://cdn.example/notice/1/mf-manifest.json' });
  const id = published.body.id as string;

  expect(await call('DELETE', '/api/sections/old-notice', noticeToken)).toMatchObject({ status: 403 });
  expect(await call('DELETE', '/api/sections/contact', OWNER)).toMatchObject({ status: 409 });
  const retired = await release('section', 'retire', 'old-notice');
  expect(retired).toMatchObject({ code: 0, out: expect.stringContaining('old-notice: retired by environment') });

  expect(await call('GET', '/api/releases?section=old-notice', noticeToken)).toMatchObject({ status: 401 });
  expect(await call('POST', `/api/releases/${id}/preview`, OWNER, {})).toMatchObject({ status: 409 });
  expect(Object.keys((await call('GET', '/api/sections', OWNER)).body)).not.toContain('old-notice');
  const history = await call('GET', '/api/releases?section=old-notice', OWNER);
  expect(history).toMatchObject({ status: 200, body: [{ id }] });
  expect(await call('POST', '/api/sections', OWNER, { id: 'old-notice', labels: { en: 'Again', id: 'Lagi' }, origins: [] })).toMatchObject({ status: 409 });
  expect(await call('DELETE', '/api/sections/old-notice', OWNER)).toMatchObject({ status: 409 });
  const audit = (await call('GET', '/api/audit?section=old-notice', OWNER)).body as unknown as { action: string }[];
  expect(audit.map((entry) => entry.action)).toEqual(['section-retire', 'token', 'publish', 'token', 'section-add']);
});

test('the database lost during an add: 503 with Retry-After, nothing half-made', async () => {
  // The add's transaction loses its connection at its audit entry, after its row and its order were written.
  const broken = await ReleaseStore.open(losingConnectionAt(control.store.db, 'INSERT INTO release_audit'), { environmentToken: OWNER });
  const brokenApi = await startControlApi({ store: broken, port: 0, publishChecks: checks, publicUrl: 'http://localhost:8080', log: silentLogger });
  try {
    const response = await fetch(`${brokenApi.url}/api/sections`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...CALCULATOR, id: 'half-made' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
  } finally {
    await brokenApi.close();
  }
  expect((await control.store.sections.list({ retired: true })).map((entry) => entry.id)).not.toContain('half-made');
  // The id is free: nothing of the add was kept.
  expect(await call('POST', '/api/sections', OWNER, { ...CALCULATOR, id: 'half-made' })).toMatchObject({ status: 201 });
});
