import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messagesCommand } from '../cli/messages-command';
import { formBody, postContact } from '../testing/http-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import { seedDataFolder } from '@portico/platform/testing';
import { PROCESS_START_MS } from '@portico/testing/processes';
import { eventually } from '@portico/testing/eventually';

/**
 * A server process on the embedded database: `npm run messages` sent to the
 * control API while it holds the folder, then a SIGKILL while messages pour
 * in, and the command opening the folder itself once the process is gone.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'portico-embedded-'));
seedDataFolder(folder);
const ENV: Record<string, string> = { PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0', DATABASE_URL: '' };

/** A port nothing listens on: taken and closed again. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** `npm run messages -- ...args` on this test's data folder, with `env` added to its environment. */
async function messagesWith(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await messagesCommand(args, {
    env: { ...ENV, ...env },
    rootDir: folder,
    invokedFrom: folder,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { stdout, stderr, code };
}

const messages = (...args: string[]) => messagesWith({}, ...args);

const exportedIds = async () => (JSON.parse((await messages('export', '--format', 'json')).stdout) as { id: string }[]).map((message) => message.id);

describe('a server on the embedded database', () => {
  let server: ServerProcess;
  const ids: string[] = [];

  beforeAll(async () => {
    // This server starts no control API: the command must find none, whatever else runs on this machine.
    ENV.PORTICO_CONTROL_URL = `http://127.0.0.1:${await closedPort()}`;
    server = await startServerProcess(ENV);
    for (const [key, overrides] of [
      ['cli-message-1', { name: '=HYPERLINK("http://evil.example")', message: 'Line one,\n"quoted"' }],
      ['cli-message-2', { name: 'Dewi \u001b]0;pwned\u0007', language: 'id' }],
    ] as const) {
      ids.push((await postContact(server.base, formBody(key, overrides))).json().id as string);
    }
  }, PROCESS_START_MS + 30_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  // The command through a real control API is tried in @portico/releases (server-process.test.ts, messages-store-choice.test.ts), which serves it.
  it('goes to the control API while a server holds the folder, and says why when it cannot', async () => {
    const noToken = await messages('list');
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain(`holds ${folder}`);
    expect(noToken.stderr).toContain('PORTICO_TOKEN');

    const closed = await closedPort();
    writeFileSync(path.join(folder, 'control-token'), 'the-owner-token\n', { mode: 0o600 });
    const unreachable = await messagesWith({ PORTICO_CONTROL_URL: `http://127.0.0.1:${closed}` }, 'list');
    rmSync(path.join(folder, 'control-token'));
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`the server's control API at http://127.0.0.1:${closed} does not answer`);
    // Nothing was read around the server: the folder is still its alone.
    expect(server.child.exitCode).toBeNull();
  }, 30_000);

  it(
    'keeps every message it answered 201 for through a SIGKILL, and the command then opens the folder itself',
    async () => {
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
      await eventually(() => acknowledged.length >= 60, { what: '60 messages acknowledged', withinMs: 30_000, everyMs: 10 });
      server.child.kill('SIGKILL');
      killed = true;
      await server.exited;
      await Promise.all(posters);

      const stored = new Set(await exportedIds());
      const lost = acknowledged.filter((id) => !stored.has(id));
      process.stderr.write(
        `embedded SIGKILL: ${sent} sent, ${acknowledged.length} answered 201, ${stored.size - 1} stored after the kill, ${lost.length} acknowledged and lost\n`,
      );
      expect(lost).toEqual([]);
      expect(stored.has(ids[0]!)).toBe(true);
    },
    PROCESS_START_MS + 60_000,
  );
});
