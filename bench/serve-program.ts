import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { builtServer, serveNodeArgs } from '@portico/testing/built-apps';
import { REPO_ROOT } from './paths';

export interface ServeProgram {
  child: ChildProcess;
  /** What it printed on stderr (its log), the last MB of it. */
  log: () => string;
  close(): Promise<void>;
}

const LOG_KEPT = 1024 * 1024;

/**
 * `npm run serve`'s program (the compiled server) as an operator starts it (one front process,
 * its render workers, the existing builds), on loopback at `port` and the
 * next four ports, with `folder/config.json` as the operator's file and a
 * data folder of its own in `folder`, until close() ends it (SIGTERM, as
 * Ctrl-C would). Its log goes on to this process's stderr unless `quiet`.
 */
export async function startServeProgram(options: {
  port: number;
  folder: string;
  env?: Record<string, string>;
  nodeArgs?: readonly string[];
  quiet?: boolean;
}): Promise<ServeProgram> {
  const child = spawn(process.execPath, [...serveNodeArgs(), ...(options.nodeArgs ?? []), builtServer()], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...operatorSettings(options.port, options.folder), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (!options.quiet) process.stderr.write(chunk);
    log = (log + chunk.toString()).slice(-LOG_KEPT);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await untilServing(child, 'npm run serve', () => log);
  return {
    child,
    log: () => log,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What an operator sets to serve on loopback at `port` (and the next four) with `folder/config.json` and a data folder in `folder`. */
export function operatorSettings(port: number, folder: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    PORTICO_CONFIG: path.join(folder, 'config.json'),
    PORTICO_DATA_DIR: path.join(folder, 'data'),
  };
}

/** Resolves once `child` (an `npm run serve`) has said both its ready lines; rejects with what it said if it stops first. */
export function untilServing(child: ChildProcessByStdio<null, Readable, Readable | null>, what: string, log: () => string = () => ''): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Portico is serving at') && output.includes('The control API')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`${what} stopped (exit ${code}) before it was ready:\n${output}\n${log()}`)));
  });
}
