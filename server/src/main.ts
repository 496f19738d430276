import path from 'node:path';
import { contactSettings, startContactService, type ContactService } from '@portico/messages';
import { basePort } from './apps';
import { StartError, startPortico } from './portico-server';
import { dataHeaders } from './security-headers';

// npm runs workspace scripts inside the workspace; paths the operator typed
// are relative to where they typed them.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const rootDir = path.resolve(__dirname, '../..');
const DEFAULT_CONFIG = path.join(__dirname, '../config/default-config.json');

async function main(): Promise<void> {
  const configPath = process.env.PORTICO_CONFIG ? path.resolve(invokedFrom, process.env.PORTICO_CONFIG) : undefined;
  const log = (line: string) => console.error(line);
  // The store opens first: the site is not announced until messages can be taken.
  const contact: ContactService = await startContactService({
    settings: contactSettings(process.env, { rootDir, invokedFrom }),
    configPath: configPath ?? DEFAULT_CONFIG,
    headers: dataHeaders(),
    log,
  });
  let running;
  try {
    running = await startPortico({
      rootDir,
      basePort: basePort(),
      host: process.env.HOST || undefined,
      configPath,
      log,
      api: contact.handleApi,
    });
  } catch (error) {
    await contact.close();
    throw error;
  }
  if (configPath) console.log(`Serving config.json from ${configPath}`);
  console.log(contact.summary);
  console.log(`Portico is serving at ${running.url}`);

  const stop = () => {
    void running
      .close()
      .then(() => contact.close())
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`Portico could not start: ${error instanceof StartError || error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
