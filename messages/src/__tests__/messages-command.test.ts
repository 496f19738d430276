import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messagesCommand, type CommandContext } from '../cli/messages-command';
import { openStore } from '../contact-service';
import { contactSettings } from '../settings';

// `npm run messages` on a folder no server holds, with no server answering
// where the control API would be: the command reads the folder itself.

// Each command opens the embedded database (PGlite's WebAssembly start): on a busy machine a few seconds each.
jest.setTimeout(60_000);

const UNSAFE = /(?!\n)[\p{Cc}\p{Cf}]/u;

let folder: string;
let closedPort: number;
const ids: string[] = [];

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-messages-command-'));
  closedPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const { store, release } = await openStore(contactSettings({ PORTICO_DATA_DIR: folder }, { rootDir: folder, invokedFrom: folder }));
  try {
    for (const [key, name, message] of [
      ['terminal-0001', 'Dewi \u202Egnp.exe', 'line one\nline two \u001b[2J\u2066hidden\u2069 \u009b31m'],
      ['terminal-0002', 'Asha \u001b]0;owned\u0007', 'Call me\r overwritten'],
    ]) {
      const outcome = await store.submit(
        { name: name!, telephone: '+91 98765 43210', message: message!, language: 'en', idempotencyKey: key! },
        { address: '192.0.2.1' },
      );
      ids.push((outcome as { id: string }).id);
    }
  } finally {
    await store.close();
    release();
  }
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function messages(args: string[], extra: Partial<CommandContext> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await messagesCommand(args, {
    env: { PORTICO_DATA_DIR: folder, DATABASE_URL: '', PORTICO_CONTROL_URL: `http://127.0.0.1:${closedPort}` },
    rootDir: folder,
    invokedFrom: folder,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    ...extra,
  });
  return { code, stdout, stderr };
}

describe('what npm run messages prints', () => {
  it('shows every control and format character a visitor typed escaped, in list and show; show keeps the line breaks', async () => {
    const list = await messages(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(UNSAFE);
    expect(list.stdout).toContain('Dewi \\u202egnp.exe');
    expect(list.stdout).toContain('Asha \\x1b]0;owned\\x07');
    expect(list.stdout.trim().split('\n')).toHaveLength(2);

    const show = await messages(['show', ids[0]!]);
    expect(show.stdout).not.toMatch(UNSAFE);
    expect(show.stdout).toContain('line one\nline two \\x1b[2J\\u2066hidden\\u2069 \\x9b31m');
    expect((await messages(['show', ids[1]!])).stdout).toContain('Call me\\r overwritten');
  });

  it("exports the exact text: JSON with a terminal's characters as \\u escapes, CSV as typed to a file and escaped to a terminal", async () => {
    const json = (await messages(['export', '--format', 'json'])).stdout;
    expect(json.replace(/\n/g, '')).not.toMatch(UNSAFE);
    expect((JSON.parse(json) as { name: string }[]).map((message) => message.name).sort()).toEqual(['Asha \u001b]0;owned\u0007', 'Dewi \u202Egnp.exe']);

    const toFile = (await messages(['export'])).stdout;
    expect(toFile).toContain('"Dewi \u202Egnp.exe"');
    const toTerminal = (await messages(['export'], { outIsTerminal: true })).stdout;
    expect(toTerminal.replace(/\r\n/g, '')).not.toMatch(UNSAFE);
    expect(toTerminal).toContain('"Dewi \\u202egnp.exe"');
  });

  it('escapes what it was given in its errors', async () => {
    const missing = await messages(['show', 'no-such\u202Eid\u001b[2J']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no message no-such\\u202eid\\x1b[2J');
  });

  it("writes the control API's CSV as it came, and nothing when the API answers JSON for it (a server of before the CSV)", async () => {
    let answerJson = false;
    const exported: string[] = [];
    // A control API at the network's edge: 401 to the command's probe, the export to its token.
    const api = createServer((request, response) => {
      if (request.headers.authorization !== 'Bearer the-messages-token')
        return void response.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"no token"}');
      exported.push(new URL(request.url!, 'http://api').searchParams.get('export') ?? '');
      if (answerJson) return void response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end('[]');
      response.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' }).end('"id","name"\r\n"m1","\'=1+1"\r\n');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const env = {
        PORTICO_DATA_DIR: folder,
        DATABASE_URL: '',
        PORTICO_CONTROL_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
        PORTICO_TOKEN: 'the-messages-token',
      };
      const csv = await messages(['export'], { env });
      expect([csv.code, csv.stdout]).toEqual([0, '"id","name"\r\n"m1","\'=1+1"\r\n']);
      answerJson = true;
      const json = await messages(['export'], { env });
      expect([json.code, json.stdout]).toEqual([1, '']);
      expect(json.stderr).toContain('GET /api/messages answered 200 with application/json; charset=utf-8, not text/csv');
      expect(exported).toEqual(['csv', 'csv']);
    } finally {
      await new Promise((resolve) => api.close(resolve));
    }
  });
});
