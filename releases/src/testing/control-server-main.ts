import path from 'node:path';
import { contactSettings, startContactService } from '@portico/messages';
import { createLogger } from '@portico/platform/logging';
import { directOrigin, serveApi } from '@portico/messages/testing';
import { startControlApi } from '../control/control-api';
import { ReleaseStore } from '../store/release-store';

/**
 * A server process for the tests that need one holding the embedded
 * database: the contact service, and the release store and control API on
 * its database object, wired as `npm run serve` wires them, without the
 * apps. Prints `listening <contact base> <control URL>` when ready.
 */
async function main(): Promise<void> {
  const log = createLogger({ level: 'info' });
  const settings = contactSettings(process.env, { rootDir: path.resolve(__dirname, '../../..'), invokedFrom: process.cwd() });
  const service = await startContactService({ settings, requestOrigin: directOrigin, log });
  const store = await ReleaseStore.open(service.database, { environmentToken: process.env.PORTICO_CONTROL_TOKEN || undefined });
  const written = await store.ownerToken.ensure(settings.dataDir);
  if (written) log.info(`control: the owner token is in ${written}`);
  const contact = await serveApi(service);
  const control = await startControlApi({
    store,
    port: 0,
    // No build is published here: the checks' own tests publish.
    publishChecks: () => Promise.resolve({ ok: false, checks: [{ name: 'checks', ok: false, detail: 'this test server runs no checks' }] }),
    messages: service.store,
    publicUrl: contact.base,
    log,
  });
  process.stdout.write(`listening ${contact.base} ${control.url}\n`);
  process.once('SIGTERM', () => {
    void Promise.all([contact.close(), control.close()])
      .then(() => service.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`control server: ${(error as Error).message}\n`);
  process.exit(1);
});
