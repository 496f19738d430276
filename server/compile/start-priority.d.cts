export declare const DEFAULT_START_NICE: number;
/** The start is lowered this long at most (a start on a busy machine is not stretched without bound). */
export declare const LOWERED_AT_MOST_MS: number;
/** Whether a process may set its nice value back to `nice` once lowered (CAP_SYS_NICE, or RLIMIT_NICE), from /proc/self/status and /proc/self/limits. */
export declare function mayRaiseTo(nice: number, proc: { status: string; limits: string }): boolean;
/** PORTICO_START_NICE read as the launcher reads it: 0 to 19, anything else the default. */
export declare function startNiceOf(raw: string | undefined): number;
/** Lowers this process's priority for its start when it may raise it back; `restore()`, or `withinMs` passing first, puts it and every process under it back. */
export declare function lowerForStart(options?: {
  nice?: string;
  pid?: number;
  proc?: { status: string; limits: string };
  withinMs?: number;
}): { lowered: number; restore: () => void };
