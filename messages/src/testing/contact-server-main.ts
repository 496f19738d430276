import path from 'node:path';
import { createLogger } from '@portico/platform/logging';
import { startContactService } from '../contact-service';
import { contactSettings } from '../settings';
import { serveApi } from './api-server';
import { directOrigin } from './direct-origin';

/**
 * A server process for the tests that need real processes (two instances on
 * one database, SIGKILL): the contact service as `npm run serve` starts it,
 * on loopback, without the static apps. Prints `listening <base>` when ready.
 */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const service = await startContactService({
    settings: contactSettings(process.env, { rootDir: root, invokedFrom: process.cwd() }),
    requestOrigin: directOrigin,
    log: createLogger({ level: 'info' }),
    pollMs: 50,
  });
  const api = await serveApi(service, { port: Number(process.env.PORT ?? 0) });
  process.stdout.write(`listening ${api.base}\n`);
  process.once('SIGTERM', () => {
    void api
      .close()
      .then(() => service.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`contact server: ${(error as Error).message}\n`);
  process.exit(1);
});
