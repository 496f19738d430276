import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '../contact-service';
import { contactSettings } from '../settings';
import { formBody, postContact } from '../testing/http-client';
import { startServerProcess } from '../testing/server-process';

/**
 * What a SIGKILL of a server on the embedded database can lose: messages are
 * posted without pause, the process is killed mid-stream, and the folder is
 * opened again. Every message answered 201 must be there.
 */
describe('the embedded database after a SIGKILL', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-embedded-kill-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps every message it answered 201 for, and the next process takes the folder over', async () => {
    const env = { PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '0' };
    const server = await startServerProcess(env, 60_000);
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const poster = async () => {
      while (!killed) {
        const key = `embedded-kill-${String(sent++).padStart(5, '0')}`;
        try {
          const answer = await postContact(server.base, formBody(key));
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

    const { store, release } = await openStore(contactSettings(env, { rootDir: folder, invokedFrom: folder }));
    try {
      const storedIds = new Set((await store.list()).map((message) => message.id));
      const lost = acknowledged.filter((id) => !storedIds.has(id));
      process.stderr.write(
        `embedded SIGKILL: ${sent} sent, ${acknowledged.length} answered 201, ${storedIds.size} stored after the restart, ${lost.length} acknowledged and lost\n`,
      );
      expect(lost).toEqual([]);
      expect(storedIds.size).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      await store.close();
      release();
    }
  }, 90_000);
});
