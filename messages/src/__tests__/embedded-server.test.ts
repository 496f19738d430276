import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messagesCommand } from '../cli/messages-command';
import { formBody, postContact } from '../testing/http-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';

/**
 * A server process on the embedded database: `npm run messages` through its
 * admin endpoint, then a SIGKILL while messages pour in, and the command
 * opening the folder itself once the process is gone.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'portico-embedded-'));
const ENV = { PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0', DATABASE_URL: '' };

/** `npm run messages -- ...args` on this test's data folder. */
async function messages(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await messagesCommand(args, {
    env: ENV,
    rootDir: folder,
    invokedFrom: folder,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { stdout, stderr, code };
}

const exportedIds = async () => (JSON.parse((await messages('export', '--format', 'json')).stdout) as { id: string }[]).map((message) => message.id);

describe('a server on the embedded database', () => {
  let server: ServerProcess;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess(ENV, 60_000);
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

  it('serves npm run messages through its admin endpoint, whose token file only its owner reads', async () => {
    expect(statSync(path.join(folder, 'admin.json')).mode & 0o777).toBe(0o600);
    const [list, show, csv, json] = await Promise.all([
      messages('list'),
      messages('show', ids[0]!),
      messages('export', '--format', 'csv', '--since', '2020-01-01'),
      exportedIds(),
    ]);
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    // The escape sequence a visitor typed never reaches the lender's terminal.
    expect(list.stdout).not.toContain('\u001b');
    expect(show.stdout).toContain('Line one,\n"quoted"');
    expect(csv.stdout.split('\r\n')[0]).toBe('"id","receivedAt","language","name","telephone","message","delivery","attempts","deliveredAt","lastError"');
    // A spreadsheet shows the formula a visitor typed as text, and a telephone number as text too (export-format.test.ts tries the rest).
    expect(csv.stdout).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv.stdout).toContain(`,"'+91 98765 43210",`);
    expect(json.sort()).toEqual([...ids].sort());
  }, 30_000);

  it('deletes a message, and says so when there is none or the input is wrong', async () => {
    expect((await messages('delete', ids[1]!)).stdout).toContain(`deleted ${ids[1]}`);
    const [again, format] = await Promise.all([messages('delete', ids[1]!), messages('list', '--since', 'yesterday-ish')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no message ${ids[1]}`);
    expect(format.stderr).toContain('is not a date');
  }, 30_000);

  it('keeps every message it answered 201 for through a SIGKILL, and the command then opens the folder itself', async () => {
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const poster = async () => {
      while (!killed) {
        try {
          const answer = await postContact(server.base, formBody(`embedded-kill-${String(sent++).padStart(5, '0')}`));
          if (answer.status === 201) acknowledged.push(answer.json().id as string);
        } catch {
          // The connection died with the process.
        }
      }
    };
    const posters = Array.from({ length: 6 }, poster);
    while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 10));
    server.child.kill('SIGKILL');
    killed = true;
    await server.exited;
    await Promise.all(posters);

    const stored = new Set(await exportedIds());
    const lost = acknowledged.filter((id) => !stored.has(id));
    process.stderr.write(`embedded SIGKILL: ${sent} sent, ${acknowledged.length} answered 201, ${stored.size - 1} stored after the kill, ${lost.length} acknowledged and lost\n`);
    expect(lost).toEqual([]);
    expect(stored.has(ids[0]!)).toBe(true);
  }, 60_000);
});
