import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROCESS_START_MS, startNodeProgram, waitForOutput } from '../processes';

// Programs written for the test: one that prints its address and stays, one
// that is refused its start (a port taken) and ends.
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'portico-processes-'));
  writeFileSync(path.join(folder, 'stays.ts'), "process.stdout.write('listening http://127.0.0.1:4100 ready\\n');\nsetInterval(() => undefined, 1000);\n");
  writeFileSync(path.join(folder, 'refused.ts'), "console.error('port 4100 is already in use');\nprocess.exit(3);\n");
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test(
  "waitForOutput gives a pattern's groups once the line is there",
  async () => {
    const program = startNodeProgram(path.join(folder, 'stays.ts'), { env: process.env });
    try {
      const [, address] = await waitForOutput(program, /listening (\S+) ready\n/);
      expect(address).toBe('http://127.0.0.1:4100');
    } finally {
      program.child.kill('SIGTERM');
      await program.exited;
    }
  },
  PROCESS_START_MS,
);

test(
  'a program that ends before its line fails the wait at once, with its exit code and its output',
  async () => {
    const program = startNodeProgram(path.join(folder, 'refused.ts'), { env: process.env });
    // A bound past the test's own: only the program's end can answer in time.
    await expect(waitForOutput(program, 'listening', { what: 'the server', withinMs: 10 * PROCESS_START_MS })).rejects.toThrow(
      /^the server: "listening" never appeared \(it ended first \(3\)\); its output was:\nport 4100 is already in use/,
    );
  },
  PROCESS_START_MS,
);
