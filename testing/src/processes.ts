import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './eventually';

/**
 * How long a test gives a Node process it starts (`node --import tsx …`) to
 * be ready or, for a command, to run to its end. Starting tsx takes about a
 * second here and ten times that on a machine whose cores are busy with
 * something else (a shared CI runner, `npm run test:soak`): a test asserts
 * what the process did, never how fast it started, so the bound is generous.
 */
export const PROCESS_START_MS = 120_000;

/** A program a test started, and what it has printed. */
export interface NodeProgram {
  child: ChildProcess;
  /** Its stdout and stderr so far, as they came. */
  output: () => string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once it has exited and all it printed is read (its pipes closed). */
  closed: Promise<void>;
}

/**
 * Runs a program as one Node process: compiled JavaScript as it is, a
 * TypeScript one with tsx's loader (`node --import tsx`), not tsx's CLI: that runs the program in a child of its own
 * and gives it 30 ms to take a SIGTERM before a SIGKILL, so a signal the test
 * sends would not reach the program itself. `wrapper` is a command that
 * execs node (`unshare --net --`); `nodeArgs` are node's own flags (serveNodeArgs).
 */
export function startNodeProgram(
  file: string,
  options: { args?: readonly string[]; nodeArgs?: readonly string[]; cwd?: string; env: NodeJS.ProcessEnv; wrapper?: readonly string[] },
): NodeProgram {
  // A wrapper (`unshare --net --`) runs node itself, which it execs: a signal still reaches the program.
  const [command, ...prefix] = [...(options.wrapper ?? []), process.execPath];
  // TypeScript through tsx; compiled JavaScript (the server's launcher, serve.cjs) as it is.
  const loader = /\.tsx?$/.test(file) ? ['--import', 'tsx'] : [];
  const child = spawn(command!, [...prefix, ...(options.nodeArgs ?? []), ...loader, file, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, output: () => output, exited, closed };
}

/**
 * Waits for `line` (a text, or a pattern whose groups the caller reads) in
 * the program's output, for `withinMs`. It fails at once if the program ends
 * first, since the line cannot come then, and always with the whole output,
 * so that a start refused (a port taken, a setting) or stuck says where it
 * stopped. Resolves with the match (a pattern's groups after it).
 */
export async function waitForOutput(
  program: NodeProgram,
  line: string | RegExp,
  { what = 'the program', withinMs = PROCESS_START_MS }: { what?: string; withinMs?: number } = {},
): Promise<readonly string[]> {
  const find = (text: string): readonly string[] | null => (typeof line === 'string' ? (text.includes(line) ? [line] : null) : line.exec(text));
  const { child } = program;
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  await eventually(() => find(program.output()) !== null || ended(), { withinMs, everyMs: 50 }).catch(() => undefined);
  // Its last words can still be in the pipes when it exits. A process it
  // started can hold them open: that one does not hold this up for long.
  if (ended()) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([program.closed, new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
    clearTimeout(timer);
  }
  const match = find(program.output());
  if (match) return match;
  const why = ended() ? `it ended first (${child.exitCode ?? child.signalCode})` : `not within ${withinMs / 1000} s`;
  throw new Error(`${what}: "${String(line)}" never appeared (${why}); its output was:\n${program.output()}`);
}
