import path from 'node:path';
import { contactSettings, startContactService, type ContactService } from '@portico/messages';
import { basePort } from '@portico/shared-config/contract';
import { DEFAULT_CONFIG_PATH } from '@portico/shared-config/node-config';
import { StartError, startPortico } from './portico-server';
import { allowedHostnames, trustProxyFrom, visitorOf } from './request-origin';
import { dataHeaders } from './security-headers';

// Every request is answered in its own guarded promise; a rejection that
// still escapes is a bug to log, not a reason to take four sites down.
process.on('unhandledRejection', (reason: unknown) => {
  console.error(`Portico: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
});

// npm runs workspace scripts inside the workspace; paths the operator typed
// are relative to where they typed them.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const rootDir = path.resolve(__dirname, '../..');

/** PORTICO_SSR_BUDGET_MS: how long a page may take to render on the server before the client-rendered page is sent. */
function ssrBudgetMs(): number | undefined {
  const value = process.env.PORTICO_SSR_BUDGET_MS;
  if (value === undefined || value === '') return undefined;
  const budget = Number(value);
  if (!Number.isInteger(budget) || budget < 1 || budget > 10_000) {
    throw new StartError(`PORTICO_SSR_BUDGET_MS must be a whole number of milliseconds from 1 to 10000, got "${value}"`);
  }
  return budget;
}

async function main(): Promise<void> {
  const configPath = process.env.PORTICO_CONFIG ? path.resolve(invokedFrom, process.env.PORTICO_CONFIG) : undefined;
  const log = (line: string) => console.error(line);
  const trustProxy = trustProxyFrom();
  // The store opens first: the site is not announced until messages can be taken.
  const contact: ContactService = await startContactService({
    settings: contactSettings(process.env, { rootDir, invokedFrom }),
    configPath: configPath ?? DEFAULT_CONFIG_PATH,
    headers: dataHeaders(),
    // The page's origin as the visitor sees it: the server's one reading of
    // Host and, behind a trusted proxy, X-Forwarded-*.
    requestOrigin: (req) => {
      const visitor = visitorOf(req, { trustProxy });
      return { origin: visitor.origin, address: visitor.address ?? 'unknown' };
    },
    log,
  });
  let running;
  try {
    running = await startPortico({
      rootDir,
      basePort: basePort(process.env),
      host: process.env.HOST || undefined,
      configPath,
      hostnames: allowedHostnames(),
      trustProxy,
      log,
      api: contact.handleApi,
      // PORTICO_SSR=0: the client-rendered page only, as a static host serves it.
      ssr: process.env.PORTICO_SSR === '0' ? false : { budgetMs: ssrBudgetMs(), cache: process.env.PORTICO_SSR_CACHE !== '0' },
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
