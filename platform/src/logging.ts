import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { pino, stdSerializers, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { LogLevel } from './settings';

export { type LogLevel } from './settings';

/**
 * What a component is given to log with: Fastify's logger type (pino's
 * methods: `error` for a fault, `warn` for a part set aside or a fallback,
 * `info` for routine, `debug` for chatter, and `child`), so main.ts's pino
 * logger, a child of it, a request's `request.log` and a test's capture all
 * fit, and the same one can be Fastify's `loggerInstance`.
 */
export type Logger = FastifyBaseLogger;

export interface LoggerOptions {
  level: LogLevel;
  /** Where the lines go: stderr by default (stdout holds the plain lines people and tests wait for, the ready line first). */
  destination?: DestinationStream & { isTTY?: boolean };
  /** Readable lines instead of JSON: by default when the destination is a terminal. */
  pretty?: boolean;
}

/** A request's path without its query (a preview link's token rides there) and a target no URL takes kept short. */
export function pathOnly(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  const pathname = query === -1 ? target : target.slice(0, query);
  return pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
}

/**
 * What a request says in a log line: its method and path. Never its query
 * (preview tokens), its headers (tokens, cookies) nor the client's address
 * (docs/privacy.md): pino's default serializer logs all three.
 */
function requestFields(req: IncomingMessage | { method?: string; url?: string; raw?: IncomingMessage }): { method?: string; path: string } {
  const raw = 'raw' in req && req.raw ? req.raw : (req as IncomingMessage);
  return { method: raw.method, path: pathOnly(raw.url) };
}

/**
 * The server's one logger, made at its edge (server/src/main.ts) from
 * PORTICO_LOG_LEVEL: JSON lines for a collector, readable lines on a
 * terminal (pino-pretty, loaded only then). Fastify's apps are given it, so
 * each request's lines carry its `reqId`.
 */
export function createLogger(options: LoggerOptions): PinoLogger {
  const destination = options.destination ?? pino.destination({ dest: 2, sync: true });
  const tty = options.destination ? options.destination.isTTY === true : process.stderr.isTTY === true;
  const settings = {
    level: options.level,
    // The process, not the machine: a collector adds its own host.
    base: { pid: process.pid },
    serializers: { req: requestFields, res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }), err: stdSerializers.err },
  };
  if (!(options.pretty ?? tty)) return pino(settings, destination);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a terminal's formatter, not loaded by a server whose log is collected
  const { PinoPretty } = require('pino-pretty') as typeof import('pino-pretty');
  return pino(settings, PinoPretty({ destination, sync: true, colorize: tty, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid' }));
}

/** A logger that says nothing (tests, and components started without one). */
export const silentLogger: Logger = pino({ level: 'silent' });

/** Whether `logger` says `debug` lines: a hook that would only make them is not even added otherwise. */
export function saysDebug(logger: Logger): boolean {
  return logger.level === 'debug' || logger.level === 'trace';
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
type Bindings = Parameters<Logger['child']>[0];
type ChildOptions = Parameters<Logger['child']>[1];

/**
 * A request's `request.log`: the child logger (its `reqId`) made only when
 * the request says something. Fastify makes a pino child for every request,
 * 4 µs of serialised bindings, though a request served well says nothing at
 * `info`: that was a fiftieth of a `/config.json` (a CPU profile of
 * bench:server).
 */
class RequestLog {
  #made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): Logger {
    this.#made ??= this.parent.child(this.bindings, this.options);
    return this.#made;
  }

  get level(): string {
    return this.#made?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildOptions): Logger {
    return this.logger.child(bindings, options);
  }
}

for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] satisfies Level[]) {
  Object.defineProperty(RequestLog.prototype, level, {
    value(this: { logger: Logger }, ...args: unknown[]) {
      (this.logger[level] as (...said: unknown[]) => void)(...args);
    },
  });
}

/** Fastify's `childLoggerFactory`: each request's logger, made lazily (RequestLog). */
export function lazyRequestLogger(logger: Logger, bindings: Bindings, options: ChildOptions): Logger {
  return new RequestLog(logger, bindings, options) as unknown as Logger;
}
