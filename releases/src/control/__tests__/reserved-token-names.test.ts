import { releaseCommand } from '../../cli/release-command';
import type { PublishChecks } from '../../release';
import { foldedName, SERVER_ACTORS } from '../../scopes';
import type { ReleaseStore } from '../../store/release-store';
import type { ControlApi } from '../control-api';
import { controlApiOnTestStore, type ControlApiOnTestStore } from './control-api-on-test-store';
import { consoleSignIn } from '../../console/__tests__/console-sign-in';

// A token named like an actor the server writes (`canary-judge-` rolled Home
// back as "canary-judge- rollback home") is refused by the one rule
// (reservedNameProblem), whichever way it is asked for: the API with a
// bearer token, the console's session, and `npm run release -- token create`.

const OWNER = 'the-integrator-token';
const checks: PublishChecks = () => Promise.resolve({ ok: true, checks: [], manifest: { integrity: 'sha384-x', version: '1.0.0', buildId: 'b' } });
const LOOK_ALIKES = ['canary-judge-', 'owner_', 'server.', 'Canary_Judge', 'ＯＷＮＥＲ', 'own-er', 'Environment', 'background.check', 'local-root'];

let running: ControlApiOnTestStore;
let store: ReleaseStore;
let api: ControlApi;
let folder: string;

beforeAll(async () => {
  running = await controlApiOnTestStore('reserved-names', { owner: OWNER, publishChecks: checks });
  ({ store, api, folder } = running);
}, 60_000);

afterAll(() => running?.close());

const createWith = async (headers: Record<string, string>, name: string) => {
  const response = await fetch(`${api.url}/api/tokens`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return { status: response.status, body: (await response.json()) as { error?: string; field?: string } };
};

it.each(LOOK_ALIKES)('refuses %j through the API with a bearer token: 400 naming the field and why', async (name) => {
  const { status, body } = await createWith({ Authorization: `Bearer ${OWNER}` }, name);
  expect({ status, field: body.field }).toEqual({ status: 400, field: 'name' });
  expect(body.error).toContain(`the name ${JSON.stringify(name)} is reserved`);
});

it('refuses them through the console’s session alike', async () => {
  const signIn = await consoleSignIn(api.url, OWNER);
  expect(signIn.status).toBe(201);
  const session = signIn.headers;
  for (const name of LOOK_ALIKES) {
    const { status, body } = await createWith(session, name);
    expect([name, status, body.field]).toEqual([name, 400, 'name']);
    expect(body.error).toContain('is reserved');
  }
  // The same session makes a token of another name.
  expect((await createWith(session, 'home-fix')).status).toBe(201);
});

it('refuses them through `npm run release -- token create` alike, exit 1 with the reason', async () => {
  for (const name of LOOK_ALIKES) {
    let stderr = '';
    const code = await releaseCommand(['token', 'create', name], {
      env: { PORTICO_CONTROL_URL: api.url, PORTICO_DATA_DIR: folder, PORTICO_TOKEN: OWNER },
      rootDir: folder,
      invokedFrom: folder,
      out: () => undefined,
      err: (text) => (stderr += text),
    });
    expect([name, code]).toEqual([name, 1]);
    expect(stderr).toContain(`the name ${JSON.stringify(name)} is reserved`);
  }
});

it('leaves no token of those names, and no audit line by an actor that reads as the server’s', async () => {
  const reserved = new Set(SERVER_ACTORS.map(foldedName));
  expect((await store.tokens.list()).filter((token) => reserved.has(foldedName(token.name)))).toEqual([]);
  expect(
    (await store.audit.list()).filter((entry) => entry.action === 'token' && /reserved|judge|own-?er|server|environment|check|local/i.test(entry.detail)),
  ).toEqual([]);
});
