import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startContactService, type ContactService } from '../contact-service';
import { directOrigin } from '../testing/direct-origin';
import { contactSettings } from '../settings';
import { serveApi } from '../testing/api-server';
import { formBody, postContact } from '../testing/http-client';
import { serverTestsRun, startTestPostgres, type TestPostgres } from '@portico/platform/testing';
import { eventually } from '@portico/testing/eventually';

/**
 * A database server that is away when `npm run serve` starts does not stop
 * it: the service waits for the database (the server takes visitors
 * meanwhile, answering 503 on /api/), and opens the store once it answers.
 */
const describeWithServer = serverTestsRun() ? describe : describe.skip;

describeWithServer('a database server away at start', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-wait-'));
  let cluster: TestPostgres;
  beforeAll(() => {
    cluster = startTestPostgres();
    cluster.stop();
  }, 60_000);
  afterAll(() => {
    cluster?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  const settings = () => contactSettings({ DATABASE_URL: cluster.url, PORTICO_CONTACT_RATE_LIMIT: '0' }, { rootDir: folder, invokedFrom: folder });

  it('is tried again until it answers, then the store opens and takes messages', async () => {
    const logged: string[] = [];
    let service: ContactService | undefined;
    const starting = startContactService({
      settings: settings(),
      requestOrigin: directOrigin,
      log: (line) => logged.push(line),
      waitForDatabase: { firstRetryMs: 100 },
    }).then((started) => (service = started));
    try {
      await eventually(() => logged.filter((line) => line.includes('trying again in')).length >= 2, { what: 'two retries logged', withinMs: 30_000 });
      expect(service).toBeUndefined();
      expect(logged[0]).toMatch(
        /^contact: cannot open the message store on the PostgreSQL server at .*; trying again in 0\.1 s \(until then \/api\/contact answers 503\)$/,
      );
      expect(logged[1]).toContain('trying again in 0.2 s');

      cluster.start();
      await starting;
      const api = await serveApi(service!);
      try {
        expect((await postContact(api.base, formBody('waited-for-db-1'))).status).toBe(201);
      } finally {
        await api.close();
      }
    } finally {
      await (await starting).close();
    }
  }, 60_000);

  it('stops waiting when the server stops', async () => {
    try {
      cluster.stop();
    } catch {
      // Not running.
    }
    const stopping = new AbortController();
    const logged: string[] = [];
    const starting = startContactService({
      settings: settings(),
      requestOrigin: directOrigin,
      log: (line) => logged.push(line),
      waitForDatabase: { signal: stopping.signal },
    });
    await eventually(() => logged.length > 0, { what: 'the first retry logged', withinMs: 30_000 });
    stopping.abort();
    await expect(starting).rejects.toThrow(/abort/i);
  }, 60_000);
});
