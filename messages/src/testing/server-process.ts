import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROCESS_START_MS } from '@portico/testing/processes';

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `contact-server-main.ts` in its own process with `env`; resolves once it listens. */
export function startServerProcess(env: Record<string, string>, timeoutMs = PROCESS_START_MS): Promise<ServerProcess> {
  // tsx as a loader in this one process (not tsx's CLI, which runs the
  // script in a child of its own): a SIGKILL must reach the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'contact-server-main.ts')], {
    cwd: path.join(__dirname, '../..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the contact server did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          base: match[1]!,
          child,
          output: () => output,
          exited,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the contact server exited (${code}) before listening:\n${output}`));
    });
  });
}
