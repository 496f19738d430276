import { createInterface } from 'node:readline/promises';
import { runCommand } from '@portico/platform/command-line';
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

runCommand(messagesCommand, __filename, {
  outIsTerminal: process.stdout.isTTY,
  ask: process.stdin.isTTY && process.stderr.isTTY ? ask : undefined,
});
