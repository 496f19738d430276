import path from 'node:path';

/** What a command is given: the environment, where the repository is and where it was typed, and its two outputs. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  rootDir: string;
  invokedFrom: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Runs an operator's command as a process (`npm run release`, `npm run
 * messages`): its arguments, this process's environment and outputs, and
 * its answer as the exit code. npm runs a workspace script inside the
 * workspace, so paths the operator typed are taken from where they typed
 * them (INIT_CWD). `cliFile` is the command's own file, three folders
 * below the repository root (`<package>/src/cli/<name>-cli.ts`).
 */
export function runCommand<Extra extends object>(command: (args: string[], io: CommandIo & Extra) => Promise<number>, cliFile: string, extra: Extra): void {
  void command(process.argv.slice(2), {
    env: process.env,
    rootDir: path.resolve(path.dirname(cliFile), '../../..'),
    invokedFrom: process.env.INIT_CWD ?? process.cwd(),
    out: (text: string) => process.stdout.write(text),
    err: (text: string) => process.stderr.write(text),
    ...extra,
  }).then((code) => {
    process.exitCode = code;
  });
}
