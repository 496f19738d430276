import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { formBody, postContact } from '../testing/http-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';

const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), 'portico-cli-'));
const PACKAGE = path.join(__dirname, '../..');

/** `npm run messages -- ...args` on this test's data folder. */
async function messages(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/messages-cli.ts', ...args], {
      cwd: PACKAGE,
      env: { ...process.env, PORTICO_DATA_DIR: folder, DATABASE_URL: '' },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('npm run messages on the embedded database', () => {
  let server: ServerProcess;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' }, 60_000);
    for (const [key, overrides] of [
      ['cli-message-1', { name: '=HYPERLINK("http://evil.example")', message: 'Line one,\n"quoted"' }],
      ['cli-message-2', { name: 'Dewi \u001b]0;pwned\u0007', language: 'id' }],
    ] as const) {
      ids.push((await postContact(server.base, formBody(key, overrides))).json().id as string);
    }
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reaches the running server through its admin endpoint, whose token file only the owner reads', async () => {
    expect(statSync(path.join(folder, 'admin.json')).mode & 0o777).toBe(0o600);
    const list = await messages('list');
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    // The escape sequence a visitor typed never reaches the terminal.
    expect(list.stdout).not.toContain('\u001b');

    const show = await messages('show', ids[0]!);
    expect(show.stdout).toContain('Line one,\n"quoted"');
  }, 30_000);

  it('exports CSV a spreadsheet will not run, and JSON', async () => {
    const csv = await messages('export', '--format', 'csv', '--since', '2020-01-01');
    const [header] = csv.stdout.split('\r\n');
    expect(header).toBe('id,receivedAt,language,name,telephone,message,delivery,attempts,deliveredAt,lastError');
    expect(csv.stdout).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv.stdout).toContain('+91 98765 43210');
    const json = JSON.parse((await messages('export', '--format', 'json')).stdout) as { id: string }[];
    expect(json.map((message) => message.id).sort()).toEqual([...ids].sort());
    expect(JSON.parse((await messages('export', '--format', 'json', '--since', '2999-01-01')).stdout)).toEqual([]);
  }, 30_000);

  it('deletes a message, and says so when there is none or the input is wrong', async () => {
    expect((await messages('delete', ids[1]!)).stdout).toContain(`deleted ${ids[1]}`);
    const again = await messages('delete', ids[1]!);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no message ${ids[1]}`);
    expect((await messages('export', '--format', 'xml')).stderr).toContain('--format is csv or json');
    expect((await messages('list', '--since', 'yesterday-ish')).stderr).toContain('is not a date');
  }, 30_000);

  it('opens the folder itself once the server has stopped', async () => {
    await server.stop();
    const list = await messages('list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(ids[0]);
    expect(list.stdout).not.toContain(ids[1]);
  }, 60_000);
});
