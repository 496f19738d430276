import path from 'node:path';
import { PROCESS_START_MS, startNodeProgram, waitForOutput, type NodeProgram } from '@portico/testing/processes';

export interface ServerProcess extends NodeProgram {
  base: string;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `contact-server-main.ts` in its own process with `env`; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = PROCESS_START_MS): Promise<ServerProcess> {
  // One process that a SIGKILL reaches (startNodeProgram says why).
  const program = startNodeProgram(path.join(__dirname, 'contact-server-main.ts'), { cwd: path.join(__dirname, '../..'), env: { ...process.env, ...env } });
  try {
    // The whole line (its newline too): a chunk can end inside the address.
    const [, base] = await waitForOutput(program, /listening (\S+)\n/, { what: 'the contact server', withinMs: timeoutMs });
    return {
      ...program,
      base: base!,
      stop: () => {
        if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill('SIGTERM');
        return program.exited;
      },
    };
  } catch (error) {
    program.child.kill('SIGKILL');
    throw error;
  }
}
