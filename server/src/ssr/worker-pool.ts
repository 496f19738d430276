import type { Launch } from './sandbox';
import type { Logger } from '@portico/platform/logging';
import { SSR_LIMITS, WORKER_START_MS } from './render-limits';
import { WorkerProcess, type CpuBudget } from './worker-process';

/**
 * A render worker, watched as every worker the front server starts is (the
 * shell's, each section's, a publish check's): its memory, its start, the
 * size of what it may send; a section's also its CPU. One set of options, so
 * no kind of worker is watched more loosely than another.
 */
export function startWorker<To extends { id: number }, From extends { type: string }>(
  name: string,
  launch: Launch,
  maxMessageBytes: number,
  log: Logger,
  /** A section's worker's CPU budget (SECTION_CPU_BUDGET); none for the host's own shell worker. */
  cpu?: CpuBudget,
): WorkerProcess<To, From> {
  return new WorkerProcess<To, From>({ name, launch, maxMessageBytes, memoryLimitMb: SSR_LIMITS.workerMemoryMb, startMs: WORKER_START_MS, cpu, log });
}

/**
 * A worker's answer as the front server reads it: the message asked for, or
 * why there is none in words; undefined when none came in time (the worker
 * was slow, or is gone).
 */
export type WorkerAnswer<T> = { ok: T } | { failed: string } | undefined;

/**
 * The one reading of a worker's answer. A section worker runs code the
 * server does not trust, so anything but the type asked for is a failure,
 * and a reason it sends is cut before it reaches a log line.
 */
export function answerOf<From extends { type: string }, Type extends From['type']>(
  answer: From | undefined,
  type: Type,
  /** What the answer should have been, for the reason: `HTML`, `a page`. */
  expected: string,
): WorkerAnswer<Extract<From, { type: Type }>> {
  if (answer === undefined) return undefined;
  if (answer.type === type) return { ok: answer as Extract<From, { type: Type }> };
  if (answer.type === 'failed') return { failed: `it threw while rendering: ${String((answer as { reason?: unknown }).reason).slice(0, 300)}` };
  return { failed: `its worker answered something else than ${expected}` };
}
