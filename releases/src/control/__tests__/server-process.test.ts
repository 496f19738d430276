import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messagesCommand } from '@portico/messages';
import { formBody, postContact } from '@portico/messages/testing';
import { releaseCommand } from '../../cli/release-command';
import { seedDataFolder } from '@portico/platform/testing';
import { PROCESS_START_MS, startNodeProgram, waitForOutput, type NodeProgram } from '@portico/testing/processes';

/**
 * A server process holding the embedded database, as `npm run serve` holds
 * it: the owner token it writes at first start, and the `messages` and
 * `release` commands reaching it through its control API with that token.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'portico-control-server-'));
let server: NodeProgram;
let contactBase: string;
let controlUrl: string;
const ids: string[] = [];

async function run(command: typeof messagesCommand | typeof releaseCommand, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await command(args, {
    env: { PORTICO_DATA_DIR: folder, PORTICO_CONTROL_URL: controlUrl, DATABASE_URL: '' },
    rootDir: folder,
    invokedFrom: folder,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0', DATABASE_URL: '' };
  delete env.PORTICO_CONTROL_TOKEN;
  seedDataFolder(folder);
  server = startNodeProgram(path.join(__dirname, '../../testing/control-server-main.ts'), { env });
  // The whole line (its newline too): a chunk can end inside the URL.
  [, contactBase, controlUrl] = (await waitForOutput(server, /listening (\S+) (\S+)\n/, { what: 'the control server' })) as [string, string, string];
  expect(server.output()).toContain(`the owner token is in ${path.join(folder, 'control-token')}`);
  for (const [key, overrides] of [
    ['control-message-1', { name: '=HYPERLINK("http://evil.example")', message: 'Line one,\n"quoted"' }],
    ['control-message-2', { name: 'Dewi \u001b]0;pwned\u0007', language: 'id' }],
  ] as const) {
    ids.push((await postContact(contactBase, formBody(key, overrides))).json().id as string);
  }
}, PROCESS_START_MS + 30_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  rmSync(folder, { recursive: true, force: true });
});

it('writes the owner token at first start, readable by its user only', () => {
  expect(statSync(path.join(folder, 'control-token')).mode & 0o777).toBe(0o600);
});

it('serves npm run messages through the control API with the owner token', async () => {
  const [list, show, csv] = await Promise.all([
    run(messagesCommand, ['list']),
    run(messagesCommand, ['show', ids[0]!]),
    run(messagesCommand, ['export', '--format', 'csv', '--since', '2020-01-01']),
  ]);
  expect(list.code).toBe(0);
  expect(list.stdout.trim().split('\n')).toHaveLength(2);
  // The escape sequence a visitor typed never reaches the lender's terminal.
  expect(list.stdout).not.toContain('\u001b');
  expect(show.stdout).toContain('Line one,\n"quoted"');
  expect(csv.stdout).toContain(`"'=HYPERLINK(""http://evil.example"")"`);

  expect((await run(messagesCommand, ['delete', ids[1]!, '--yes'])).stdout).toBe(`deleted ${ids[1]}\n`);
  const again = await run(messagesCommand, ['delete', ids[1]!, '--yes']);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(`no message ${ids[1]}`);
}, 20_000);

it('serves npm run release status with the same token, config.json for every section of a fresh install', async () => {
  const status = await run(releaseCommand, ['status']);
  expect(status.code).toBe(0);
  expect(
    status.stdout
      .split('\n')
      .slice(1, 4)
      .map((line) => line.split(/ +/).slice(0, 2)),
  ).toEqual([
    ['home', 'config.json'],
    ['about', 'config.json'],
    ['contact', 'config.json'],
  ]);
});
