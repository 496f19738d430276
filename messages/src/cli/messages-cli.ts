import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { messagesCommand } from './messages-command';

/** A question on the terminal (asked on stderr, so stdout stays the command's output); none without one. */
async function ask(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}

// npm runs workspace scripts inside the workspace; paths the operator typed
// are relative to where they typed them.
void messagesCommand(process.argv.slice(2), {
  env: process.env,
  rootDir: path.resolve(__dirname, '../../..'),
  invokedFrom: process.env.INIT_CWD ?? process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  outIsTerminal: process.stdout.isTTY,
  ask: process.stdin.isTTY && process.stderr.isTTY ? ask : undefined,
}).then((code) => {
  process.exitCode = code;
});
