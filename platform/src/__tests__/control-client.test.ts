import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ApiRefusal, apiRoute } from '@portico/control-contract';
import { ControlSettingsError, ControlUnreachableError, controlClient } from '../command-line';

// The operator's commands' one control client: both `npm run release` and
// `npm run messages` reach the control API through it, so where it is, the
// token sent and what an unreachable or failing API is called are the same
// for both; a refusal is left to the command to word.

const status = apiRoute({ method: 'GET', path: '/api/status', answer: z.object({ ok: z.literal(true) }) });

let server: Server;
let base: string;
/** How the fake control API answers, and the Authorization each request came with. */
let answer: { status: number; body: unknown } = { status: 200, body: { ok: true } };
const authorizations: (string | undefined)[] = [];
let folder: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  folder = mkdtempSync(path.join(tmpdir(), 'portico-client-'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const client = (env: NodeJS.ProcessEnv = {}) => controlClient({ PORTICO_CONTROL_URL: base, ...env }, folder);

it('calls the API the settings name with the token they give, and says where the token came from', async () => {
  answer = { status: 200, body: { ok: true } };
  const withToken = client({ PORTICO_TOKEN: 'the-token' });
  expect(withToken.base).toBe(base);
  expect(withToken.token).toEqual({ token: 'the-token', from: 'PORTICO_TOKEN' });
  expect(await withToken.call(status, {})).toEqual({ ok: true });
  expect(authorizations.at(-1)).toBe('Bearer the-token');
  // No token: the call carries none (the messages command's probe, or a command that refuses on its own).
  expect(client().token).toBeUndefined();
  await client().call(status, {});
  expect(authorizations.at(-1)).toBeUndefined();
});

it('names a bad setting as a settings error, before any request', () => {
  expect(() => controlClient({ PORTICO_CONTROL_URL: 'file:///etc/passwd' }, folder)).toThrow(ControlSettingsError);
});

it('words an API that does not answer, answers another version, or cannot do it now the same for every command', async () => {
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const away = controlClient({ PORTICO_CONTROL_URL: `http://127.0.0.1:${closed}` }, folder);
  await expect(away.call(status, {})).rejects.toThrow(new ControlUnreachableError(`the control API at http://127.0.0.1:${closed} does not answer (`).message);
  await expect(away.call(status, {})).rejects.toBeInstanceOf(ControlUnreachableError);

  answer = { status: 200, body: { ok: 'yes' } };
  await expect(client().call(status, {})).rejects.toThrow(/^the control API at .* is it the same version as this command\?$/);

  answer = { status: 503, body: { error: 'the database is away' } };
  await expect(client().call(status, {})).rejects.toThrow(new ControlUnreachableError('the control API cannot do it now (503): the database is away'));
});

it('hands a refusal (4xx) back as the API said it, for the command to word', async () => {
  answer = { status: 403, body: { error: 'the token ci may not do that', field: 'section' } };
  const refused = await client()
    .call(status, {})
    .catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiRefusal);
  expect(refused).toMatchObject({ status: 403, body: { error: 'the token ci may not do that', field: 'section' } });
});
