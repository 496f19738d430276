import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seedDataFolder } from '@portico/platform/testing';
import { builtServer, releaseCommand, serveNodeArgs } from '@portico/testing/built-apps';
import { REPO_ROOT } from './paths';
import { allowServerStart, SERVER_START_LIMIT_MS } from './start-limit';
import { startNodeProgram, waitForOutput as waitForLine, type NodeProgram } from '@portico/testing/processes';

/** `npm run serve`'s program as a test runs it (@portico/testing/processes). */
export type ServeProcess = NodeProgram;

/** The line `npm run serve` prints once every port is open and the page is server-rendered: readiness. */
const READY_LINE = 'Portico is serving at';

/**
 * Runs `npm run serve`'s program exactly as an operator would, with extra env,
 * in one process that a signal reaches (startNodeProgram says why).
 * Each process gets a message store of its own (the embedded database is one
 * process per data folder), removed when it exits, unless `env` names one.
 * In a test, the test gets the start-up limit on top of its own time.
 */
export function runServe(env: Record<string, string>): ServeProcess {
  allowServerStart();
  const dataDir = env.PORTICO_DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'portico-data-'));
  // Its database a copy of the run's new one (global-setup.ts): PGlite's initdb would be half of its start.
  if (dataDir) seedDataFolder(dataDir);
  const serve = startNodeProgram(builtServer(), {
    nodeArgs: serveNodeArgs(),
    cwd: REPO_ROOT,
    env: { ...process.env, ...(dataDir ? { PORTICO_DATA_DIR: dataDir } : {}), ...env },
  });
  if (dataDir) serve.child.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  return serve;
}

/**
 * Waits for `text` in the output (the ready line, by default), for as long as
 * the start-up limit: the first start of an embedded store creates its
 * database, and the render workers warm in their sandboxes. Fails with the
 * whole output if the line never comes or the process exits first.
 */
export async function waitForOutput(serve: ServeProcess, text = READY_LINE, timeoutMs = SERVER_START_LIMIT_MS): Promise<void> {
  await waitForLine(serve, text, { what: 'npm run serve', withinMs: timeoutMs });
}

const run = promisify(execFile);

/**
 * `npm run release -- <args>` as an operator or a team's CI runs it, against
 * the control API of the server on `port` (PORT+4) with `token`: what it
 * printed on stdout. A refusal (exit 1) or a usage error (2) rejects, with
 * what it printed.
 */
export async function runRelease(args: string[], { port, token }: { port: number; token: string }): Promise<string> {
  const { stdout } = await run(process.execPath, [releaseCommand(), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), PORTICO_TOKEN: token },
  });
  return stdout;
}
