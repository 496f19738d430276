import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startContactService, type ContactService } from '../contact-service';
import { directOrigin } from '../testing/direct-origin';
import { contactSettings } from '../settings';
import { serveApi } from '../testing/api-server';
import { formBody, postContact } from '../testing/http-client';
import { captureLog, serverTestsRun, startTestPostgres, type TestPostgres } from '@portico/platform/testing';
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
    const log = captureLog();
    const retries = () => log.lines.filter((line) => line.retryInSeconds !== undefined);
    let service: ContactService | undefined;
    const starting = startContactService({
      settings: settings(),
      requestOrigin: directOrigin,
      log: log.logger,
      waitForDatabase: { firstRetryMs: 100 },
    }).then((started) => (service = started));
    try {
      await eventually(() => retries().length >= 2, { what: 'two retries logged', withinMs: 30_000 });
      expect(service).toBeUndefined();
      // A warning (the server serves meanwhile), the cause and the wait as fields.
      expect(retries()[0]).toMatchObject({
        level: 40,
        retryInSeconds: 0.1,
        problem: expect.stringMatching(/^cannot open the message store on the PostgreSQL server at /),
      });
      expect(retries()[1]).toMatchObject({ retryInSeconds: 0.2 });

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
    const log = captureLog();
    const starting = startContactService({
      settings: settings(),
      requestOrigin: directOrigin,
      log: log.logger,
      waitForDatabase: { signal: stopping.signal },
    });
    await eventually(() => log.lines.length > 0, { what: 'the first retry logged', withinMs: 30_000 });
    stopping.abort();
    await expect(starting).rejects.toThrow(/abort/i);
  }, 60_000);
});
