import path from 'node:path';
import { messagesCommand } from './messages-command';

// npm runs workspace scripts inside the workspace; paths the operator typed
// are relative to where they typed them.
void messagesCommand(process.argv.slice(2), {
  env: process.env,
  rootDir: path.resolve(__dirname, '../../..'),
  invokedFrom: process.env.INIT_CWD ?? process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  outIsTerminal: process.stdout.isTTY,
}).then((code) => {
  process.exitCode = code;
});
