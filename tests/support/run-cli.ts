import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths';

export interface ServeProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Runs `npm run serve`'s program exactly as an operator would, with extra env. */
export function runServe(env: Record<string, string>): ServeProcess {
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), path.join(REPO_ROOT, 'server/src/main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitForOutput(serve: ServeProcess, text: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!serve.output().includes(text)) {
    if (Date.now() > deadline || serve.child.exitCode !== null) {
      throw new Error(`"${text}" never appeared; output was:\n${serve.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
