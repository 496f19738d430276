import path from 'node:path';
import { releaseCommand } from './release-command';

// npm runs the root script from the root, a workspace script inside the
// workspace; paths the operator typed are relative to where they typed them.
void releaseCommand(process.argv.slice(2), {
  env: process.env,
  rootDir: path.resolve(__dirname, '../../..'),
  invokedFrom: process.env.INIT_CWD ?? process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});
