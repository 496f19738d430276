import path from 'node:path';
import { APP_DIRS } from '@portico/contract/sections';
import type { Browser } from '@playwright/test';
import { workerPorts, writeConfig } from './fixtures';
import { runRelease, runServe, waitForOutput, type ServeProcess } from './run-cli';
import { SECOND_BUILD_TEXT, secondBuildRoot } from './second-build';
import { untilSettled } from './section-settled';
import { serveUnderPath } from './static-server';

// The operator console's browser specs (console.spec.ts, console-explains.spec.ts)
// run `npm run serve` and its embedded database as an operator would.

export const TOKEN = 'the-integrators-console-token';
/** A change made anywhere shows on every console within this (issue 36). */
export const LIVE_MS = 2000;

// The operator console (docs/console.md) in real browsers against `npm run
// serve` and its embedded database. Port slot 9 (its control port, PORT+4,
// is slot 10's first port, unused otherwise); the second Contact build's
// upload on slot 5.

export async function startServer(
  parallelIndex: number,
): Promise<{ port: number; serve: ServeProcess; upload: { url: string; close(): Promise<void> }; release(...args: string[]): Promise<string> }> {
  const port = workerPorts(parallelIndex, 9);
  const upload = await serveUnderPath(path.join(await secondBuildRoot(), APP_DIRS.contact, 'dist'), '/contact/v2/', workerPorts(parallelIndex, 5));
  const configPath = writeConfig(port, { allowedRemoteOrigins: [new URL(upload.url).origin] });
  const serve = runServe({
    PORT: String(port),
    PORTICO_CONFIG: configPath,
    PORTICO_CONTROL_TOKEN: TOKEN,
    // Every visit here comes from this one machine: past the default 30 per 10 minutes, its reports would not count.
    PORTICO_BEACON_REPORTS_PER_NETWORK: '1000',
  });
  await waitForOutput(serve);
  const release = async (...args: string[]) => runRelease(args, { port: port, token: TOKEN });
  return { port, serve, upload, release };
}

/**
 * A visit to Contact from a fresh browser (a new cohort), left at once so the page sends its visit report:
 * whether it got the second build (its message field's label, SECOND_BUILD_TEXT).
 */
export async function visitContact(browser: Browser, port: number): Promise<boolean> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://localhost:${port}/#contact`);
    const panel = page.getByRole('tabpanel', { name: 'Contact us' });
    // Left before Contact's code has run, a visit reports nothing of it: it would count for neither release.
    await untilSettled(panel, 'contact');
    const second = (await panel.getByRole('textbox', { name: SECOND_BUILD_TEXT, exact: true }).count()) > 0;
    // Closing with its unload handlers is not waited for by Playwright: a context closed before the page has gone loses its report.
    const gone = page.waitForEvent('close');
    await page.close({ runBeforeUnload: true });
    await gone;
    return second;
  } finally {
    await context.close();
  }
}

export async function stop({ serve, upload }: { serve: ServeProcess; upload: { close(): Promise<void> } }) {
  serve.child.kill('SIGTERM');
  await serve.exited;
  await upload.close();
}
