import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedDataFolder } from '@portico/platform/testing';
import { REPO_ROOT } from './paths';
import { allowServerStart, SERVER_START_LIMIT_MS } from './start-limit';
import { eventually } from '@portico/testing/eventually';

export interface ServeProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** The line `npm run serve` prints once every port is open and the page is server-rendered: readiness. */
export const READY_LINE = 'Portico is serving at';

/**
 * Runs `npm run serve`'s program exactly as an operator would, with extra env:
 * one Node process with tsx's loader (`node --import tsx`), so a signal
 * reaches the server itself. (tsx's CLI wraps it in a second process that
 * gives it 30 ms to acknowledge a SIGTERM and then kills it with SIGKILL: a
 * busy server was not stopped cleanly.)
 * Each process gets a message store of its own (the embedded database is one
 * process per data folder), removed when it exits, unless `env` names one.
 * In a test, the test gets the start-up limit on top of its own time.
 * `program`: another program that runs it (the benchmark's, with a
 * rendering stage of its own), with its arguments.
 */
export function runServe(
  env: Record<string, string>,
  program: { file: string; args: string[] } = { file: path.join(REPO_ROOT, 'server/src/main.ts'), args: [] },
): ServeProcess {
  allowServerStart();
  const dataDir = env.PORTICO_DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'portico-data-'));
  // Its database a copy of the run's new one (global-setup.ts): PGlite's initdb would be half of its start.
  if (dataDir) seedDataFolder(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', program.file, ...program.args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...(dataDir ? { PORTICO_DATA_DIR: dataDir } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (dataDir) child.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Waits for `text` in the output (the ready line, by default), for as long as
 * the start-up limit: the first start of an embedded store creates its
 * database, and the render workers warm in their sandboxes. Fails with the
 * whole output if the line never comes or the process exits first.
 */
export async function waitForOutput(serve: ServeProcess, text = READY_LINE, timeoutMs = SERVER_START_LIMIT_MS): Promise<void> {
  // Stops early when the process exits: the line cannot come then. Either way the error below says which, with the output.
  await eventually(() => serve.output().includes(text) || serve.child.exitCode !== null, { what: `"${text}"`, withinMs: timeoutMs, everyMs: 50 }).catch(
    () => undefined,
  );
  if (!serve.output().includes(text)) {
    const why = serve.child.exitCode !== null ? `it exited with ${serve.child.exitCode}` : `not within ${timeoutMs / 1000} s`;
    throw new Error(`npm run serve did not start ("${text}" never appeared: ${why}); its output was:\n${serve.output()}`);
  }
}
