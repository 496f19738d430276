import type { Logger as PinoLogger } from 'pino';
import { createLogger, type Logger } from '../logging';

/** What a test's logger wrote: each line parsed, and the whole text, to look for what must never be there. */
export interface CapturedLog {
  logger: PinoLogger;
  /** Each JSON line as written. */
  lines: Record<string, unknown>[];
  /** Every byte written, as text. */
  text(): string;
}

/** A logger as main.ts makes it (JSON lines, the same serializers), writing into memory instead of stderr. */
export function captureLog(level: 'debug' | 'info' = 'debug'): CapturedLog {
  const chunks: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const destination = {
    write(chunk: string) {
      chunks.push(chunk);
      for (const line of chunk.split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return { logger: createLogger({ level, destination, pretty: false }), lines, text: () => chunks.join('') };
}

/**
 * A Logger that hands the words of each line at `info` and above to `line`
 * (the error's message after them, as `failed: <message>`), its `debug`
 * lines dropped: for tests that read what a component or a request said.
 */
export function linesLogger(line: (text: string) => void): Logger {
  const say = (first: unknown, message?: unknown) => {
    if (typeof first === 'string') return line(first);
    const error = (first as { err?: unknown } | undefined)?.err;
    line(`${String(message ?? '')}${error instanceof Error ? `: ${error.message}` : ''}`);
  };
  const quiet = () => undefined;
  const logger: Logger = { level: 'info', fatal: say, error: say, warn: say, info: say, debug: quiet, trace: quiet, silent: quiet, child: () => logger };
  return logger;
}
