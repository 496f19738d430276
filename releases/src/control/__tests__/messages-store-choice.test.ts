import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { contactSettings, messagesCommand, startContactService, type CommandContext, type ContactService } from '@portico/messages';
import { serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { releaseCommand } from '../../cli/release-command';
import { ReleaseStore } from '../../store/release-store';
import { startControlApi, type ControlApi } from '../control-api';
import { silentLogger } from '@portico/platform/logging';

// The case: servers on PostgreSQL, no DATABASE_URL in the operator's
// shell, and a data folder left over from the embedded database with old
// messages (and the old owner token). `npm run messages` must read the
// server's store, or refuse naming both, never the old folder in silence.

const ENV_TOKEN = 'the-servers-environment-token';
const describeWithPostgres = serverTestsRun() ? describe : describe.skip;

function contact(key: string, name: string) {
  return { name, telephone: '+62 21 5555 0101', message: `Message from ${name}`, language: 'id' as const, idempotencyKey: key };
}

describeWithPostgres('npm run messages with the servers on PostgreSQL and an old embedded folder on the machine', () => {
  let database: TestDatabase;
  let service: ContactService;
  let store: ReleaseStore;
  let api: ControlApi;
  let leftover: string;
  let lenderToken: string;
  const fresh: string[] = [];
  const old: string[] = [];

  beforeAll(async () => {
    database = serverTestDatabase();
    leftover = mkdtempSync(path.join(tmpdir(), 'portico-leftover-'));
    // The folder the embedded database left: four old messages, and its owner token.
    const embedded = await startContactService({
      settings: contactSettings({ PORTICO_DATA_DIR: leftover, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: leftover, invokedFrom: leftover }),
      requestOrigin: () => ({ origin: undefined, address: '127.0.0.1' }),
      log: silentLogger,
    });
    for (let n = 0; n < 4; n++)
      old.push(((await embedded.store.submit(contact(`old-message-${n}`, `Old ${n}`), { address: '192.0.2.1' })) as { id: string }).id);
    await embedded.close();
    writeFileSync(path.join(leftover, 'control-token'), 'the-old-embedded-owner-token\n', { mode: 0o600 });

    // The servers: messages and releases on PostgreSQL, the control API with PORTICO_CONTROL_TOKEN.
    service = await startContactService({
      settings: contactSettings({ DATABASE_URL: database.url!, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: leftover, invokedFrom: leftover }),
      requestOrigin: () => ({ origin: undefined, address: '127.0.0.1' }),
      log: silentLogger,
    });
    for (const name of ['Dewi', 'Asha'])
      fresh.push(((await service.store.submit(contact(`new-message-${name}`, name), { address: '192.0.2.2' })) as { id: string }).id);
    store = await ReleaseStore.open(service.database, { environmentToken: ENV_TOKEN });
    lenderToken = (await store.tokens.create({ name: 'lender', scopes: ['messages'], actor: 'test' })).token;
    api = await startControlApi({
      store,
      port: 0,
      publishChecks: () => Promise.reject(new Error('no publishing here')),
      messages: service.store,
      publicUrl: 'http://localhost:8080',
      log: silentLogger,
    });
  }, 90_000);

  afterAll(async () => {
    await api?.close();
    await service?.close();
    database?.cleanUp();
    rmSync(leftover, { recursive: true, force: true });
  });

  /** `npm run messages` in the operator's shell: the leftover folder is the default data folder, no DATABASE_URL. */
  async function messages(args: string[], env: Record<string, string> = {}, extra: Partial<CommandContext> = {}) {
    let stdout = '';
    let stderr = '';
    const code = await messagesCommand(args, {
      env: { PORTICO_DATA_DIR: leftover, PORTICO_CONTROL_URL: api.url, DATABASE_URL: '', ...env },
      rootDir: leftover,
      invokedFrom: leftover,
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
      ...extra,
    });
    return { code, stdout, stderr };
  }
  const listed = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('  ')[0]);

  it("refuses, naming both stores, rather than list the old folder's messages: the folder's token is not the server's", async () => {
    for (const command of [['list'], ['export', '--format', 'json'], ['delete', old[0]!, '--yes']]) {
      const refused = await messages(command);
      expect([command, refused.code, refused.stdout]).toEqual([command, 1, '']);
      expect(refused.stderr).toContain(`the server at ${api.url} refused the token from ${path.join(leftover, 'control-token')}`);
      expect(refused.stderr).toContain(`the embedded database in ${leftover} may not be it`);
    }
  });

  it('refuses, naming both, with no token at all: a server answers and does not hold the folder', async () => {
    rmSync(path.join(leftover, 'control-token'));
    try {
      const refused = await messages(['list']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`a server answers at ${api.url}, and it does not hold the embedded database in ${leftover}`);
      expect(refused.stderr).toContain('PORTICO_TOKEN');
      expect(refused.stderr).toContain('DATABASE_URL');
    } finally {
      writeFileSync(path.join(leftover, 'control-token'), 'the-old-embedded-owner-token\n', { mode: 0o600 });
    }
  });

  it("reads the server's store through its control API with a token, says so, and the read is audited under the token's name", async () => {
    const read = await messages(['list'], { PORTICO_TOKEN: lenderToken });
    expect(read.code).toBe(0);
    expect(listed(read.stdout).sort()).toEqual([...fresh].sort());
    expect(read.stderr).toContain(`messages: the messages of the server at ${api.url}, through its control API (the token from PORTICO_TOKEN)`);
    const exported = await messages(['export', '--format', 'json'], { PORTICO_TOKEN: lenderToken });
    expect((JSON.parse(exported.stdout) as { id: string }[]).map((message) => message.id).sort()).toEqual([...fresh].sort());
  });

  it("reads DATABASE_URL's database straight when no token is at hand, says so, and audits it as local:<OS user>", async () => {
    rmSync(path.join(leftover, 'control-token'));
    try {
      const read = await messages(['show', fresh[0]!], { DATABASE_URL: database.url! });
      expect(read.code).toBe(0);
      expect(read.stdout).toContain(`id          ${fresh[0]}`);
      expect(read.stderr).toContain('messages: the PostgreSQL database in DATABASE_URL (postgres://portico@/postgres');
    } finally {
      writeFileSync(path.join(leftover, 'control-token'), 'the-old-embedded-owner-token\n', { mode: 0o600 });
    }
  });

  it('reads the folder only when no server answers, and says so', async () => {
    // A port nothing listens on: taken and closed again for this.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const read = await messages(['list'], { PORTICO_CONTROL_URL: `http://127.0.0.1:${closed}` });
    expect(read.code).toBe(0);
    expect(listed(read.stdout).sort()).toEqual([...old].sort());
    expect(read.stderr).toContain(`messages: the embedded database in ${leftover}; no server answers at http://127.0.0.1:${closed}`);
  });

  it('asks before deleting, deletes with --yes, and every read, export and deletion is in the audit log with its actor and ids', async () => {
    const lender = { PORTICO_TOKEN: lenderToken };
    const noTerminal = await messages(['delete', fresh[1]!], lender);
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toContain('add --yes');
    const questions: string[] = [];
    const declined = await messages(['delete', fresh[1]!], lender, { ask: (question) => (questions.push(question), Promise.resolve('no')) });
    expect(declined).toMatchObject({ code: 0, stdout: '' });
    expect(questions).toEqual([expect.stringContaining(`delete message ${fresh[1]} from Asha`)]);
    expect((await messages(['list'], lender)).stdout).toContain(fresh[1]);
    const agreed = await messages(['delete', fresh[1]!], lender, { ask: () => Promise.resolve('yes') });
    expect(agreed).toMatchObject({ code: 0, stdout: `deleted ${fresh[1]}\n` });
    rmSync(path.join(leftover, 'control-token'));
    try {
      expect(await messages(['delete', fresh[0]!, '--yes'], { DATABASE_URL: database.url! })).toMatchObject({ code: 0, stdout: `deleted ${fresh[0]}\n` });
    } finally {
      writeFileSync(path.join(leftover, 'control-token'), 'the-old-embedded-owner-token\n', { mode: 0o600 });
    }

    // The audit log, as the owner reads it: `npm run release -- audit`.
    let audit = '';
    const code = await releaseCommand(['audit', '--limit', '30'], {
      env: { PORTICO_CONTROL_URL: api.url, PORTICO_TOKEN: ENV_TOKEN },
      rootDir: leftover,
      invokedFrom: leftover,
      out: (text) => (audit += text),
      err: () => undefined,
    });
    expect(code).toBe(0);
    const rows = audit.split('\n').slice(1).filter(Boolean);
    const local = `local:${userInfo().username}`;
    const row = (actor: string, action: string, ...ids: string[]) =>
      expect(rows.some((line) => line.includes(` ${actor} `) && line.includes(` ${action} `) && ids.every((id) => line.includes(id)))).toBe(true);
    row(local, 'message-delete', fresh[0]!);
    row('lender', 'message-delete', fresh[1]!);
    // The look before the question is a read of that message.
    row('lender', 'message-read', fresh[1]!);
    row('lender', 'message-export', ...fresh);
    row('lender', 'message-read', ...fresh);
    row(local, 'message-read', fresh[0]!);
    // Nothing of a message's text is in the log.
    expect(audit).not.toMatch(/Dewi|Asha|Message from/);
    // The messages token (no section) sees the messages' log alone.
    const own = await fetch(`${api.url}/api/audit`, { headers: { Authorization: `Bearer ${lenderToken}` } });
    expect(new Set(((await own.json()) as { action: string }[]).map((entry) => entry.action.split('-')[0]))).toEqual(new Set(['message']));
  });
});
