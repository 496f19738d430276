import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths';

export interface ServeProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Runs `npm run serve`'s program exactly as an operator would, with extra env:
 * one Node process with tsx's loader (`node --import tsx`), so a signal
 * reaches the server itself. (tsx's CLI wraps it in a second process that
 * gives it 30 ms to acknowledge a SIGTERM and then kills it with SIGKILL: a
 * busy server was not stopped cleanly.)
 * Each process gets a message store of its own (the embedded database is one
 * process per data folder), removed when it exits, unless `env` names one.
 */
export function runServe(env: Record<string, string>): ServeProcess {
  const dataDir = env.PORTICO_DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'portico-data-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server/src/main.ts')], {
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

// The first start of an embedded store creates its database (a few seconds).
export async function waitForOutput(serve: ServeProcess, text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!serve.output().includes(text)) {
    if (Date.now() > deadline || serve.child.exitCode !== null) {
      throw new Error(`"${text}" never appeared; output was:\n${serve.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
