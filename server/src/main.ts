import path from 'node:path';
import { basePort } from '@portico/shared-config/contract';
import { StartError, startPortico } from './portico-server';
import { allowedHostnames, trustProxyFrom } from './request-origin';

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
  const running = await startPortico({
    rootDir,
    basePort: basePort(process.env),
    host: process.env.HOST || undefined,
    configPath,
    hostnames: allowedHostnames(),
    trustProxy: trustProxyFrom(),
    log: (line) => console.error(line),
    ssr: { budgetMs: ssrBudgetMs() },
  });
  if (configPath) console.log(`Serving config.json from ${configPath}`);
  console.log(`Portico is serving at ${running.url}`);

  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`Portico could not start: ${error instanceof StartError || error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
