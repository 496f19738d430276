import { controlApiOnTestStore, type ControlApiOnTestStore } from './control-api-on-test-store';

// GET /metrics on the control port: read only with the metrics scope, which
// the owner, integrators and a scraper's own token hold and no other token
// does. Checked to fail without the route's scope check (every token read
// it) and before the scope existed (`--scope metrics` refused, 400).

const OWNER = 'the-owner-token-of-the-metrics-scope-test';
const TEXT = '# HELP portico_test a line\nportico_test 1\n';
let api: ControlApiOnTestStore;
let scrapes = 0;

beforeAll(async () => {
  api = await controlApiOnTestStore('metrics-scope', {
    owner: OWNER,
    publishChecks: () => Promise.resolve({ ok: false, checks: [] }),
    metrics: () => {
      scrapes += 1;
      return Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: TEXT });
    },
  });
}, 60_000);

afterAll(() => api?.close());

const scrape = (token?: string, headers: Record<string, string> = {}) =>
  fetch(`${api.api.url}/metrics`, { headers: { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...headers } });

/** A token made through the API by `by`, as an operator makes one. */
async function tokenFor(name: string, body: Record<string, unknown>, by = OWNER): Promise<string> {
  const made = await api.call('POST', '/api/tokens', by, { name, ...body });
  expect(made.status).toBe(201);
  return made.body.token as string;
}

test('a scraper token made with `token create --scope metrics` reads the metrics, as the text the server makes, and nothing else', async () => {
  const made = await api.release('token', 'create', 'prometheus', '--scope', 'metrics');
  expect(made.code).toBe(0);
  const token = /[A-Za-z0-9_-]{40,}/.exec(made.out)![0];
  const answer = await scrape(token);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await answer.text()).toBe(TEXT);
  // It publishes, lists and reads nothing.
  expect((await api.call('GET', '/api/releases', token)).status).toBe(403);
  expect((await api.call('GET', '/api/tokens', token)).status).toBe(403);
  expect((await api.call('GET', '/api/messages', token)).status).toBe(403);
  expect((await api.call('POST', '/api/releases', token, { section: 'home', manifestUrl: 'https://cdn.example/x/mf-manifest.json' })).status).toBe(403);
});

test('the owner and an integrator read the metrics; an integrator may make a scraper token, which grants no more', async () => {
  expect((await scrape(OWNER)).status).toBe(200);
  const integrator = await tokenFor('integrator', {});
  expect((await scrape(integrator)).status).toBe(200);
  const scraper = await tokenFor('scraper', { scopes: ['metrics'] }, integrator);
  expect((await scrape(scraper)).status).toBe(200);
  // A metrics token cannot mint anything, itself included.
  expect((await api.call('POST', '/api/tokens', scraper, { name: 'more', scopes: ['metrics'] })).status).toBe(403);
});

test('no token 401, an unknown one 401, a section token and a messages reader 403, a browser 403: none is given the text', async () => {
  const before = scrapes;
  const section = await tokenFor('ci-contact', { section: 'contact' });
  const messages = await tokenFor('dpo', { scopes: ['messages'] });
  const answers = [
    await scrape(),
    await scrape('not-a-token-of-this-server-at-all-000000000000'),
    await scrape(section),
    await scrape(messages),
    await scrape(OWNER, { Origin: 'https://evil.example' }),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([401, 401, 403, 403, 403]);
  for (const answer of answers) expect(await answer.text()).not.toContain('portico_test');
  expect(scrapes).toBe(before);
});

test('the scope is one the API and the command know: a token lists it, and a misspelt one is refused naming the choices', async () => {
  const listed = await api.call('GET', '/api/tokens', OWNER);
  expect((listed.body as unknown as { name: string; scopes: string[] }[]).find((token) => token.name === 'prometheus')?.scopes).toEqual(['metrics']);
  const refused = await api.release('token', 'create', 'typo', '--scope', 'metric');
  expect(refused.code).not.toBe(0);
  expect(refused.err).toContain('a scope is releases, messages, metrics or section:<section>');
});
