// The server's start at a lower CPU priority (issue 51, "Restarts drop
// nothing"). A restarted server's start (its modules, four Fastify apps, the
// render workers' processes: about 3.5 s of CPU) used to run at the priority
// of the server beside it that serves every visitor meanwhile; on a small
// machine the visitors' requests then waited for the CPU (bench:restart's
// slowest requests, answered by the other server, were asked for during the
// new one's start). Read by serve.cjs before it loads the compiled server, so
// the modules' loading is lowered too. Plain JavaScript, like the launcher.
'use strict';
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const os = require('node:os');

/** How far the start is lowered by default (PORTICO_START_NICE): a nice-0 process gets about ten times its CPU share. */
const DEFAULT_START_NICE = 10;
/**
 * The start is lowered this long at most. On a machine busy with other work
 * a lowered start gets little CPU; past this it takes its share again, so
 * the start (and a render worker's own 10 s to start, WORKER_START_MS) is not
 * stretched without bound. A start on a quiet machine is over before it.
 */
const LOWERED_AT_MOST_MS = 5000;
/** CAP_SYS_NICE's bit in /proc/self/status's CapEff. */
const CAP_SYS_NICE = 23n;

/**
 * Whether a process may set its nice value back to `nice` once lowered:
 * raising a priority needs CAP_SYS_NICE or an RLIMIT_NICE that allows it
 * (Linux only). Without either, the start is not lowered at all: a server
 * left at a low priority for its whole life would lose to every other
 * process on the machine.
 * @param {number} nice
 * @param {{ status: string, limits: string }} proc /proc/self/status and /proc/self/limits
 * @returns {boolean}
 */
function mayRaiseTo(nice, proc) {
  const capabilities = /^CapEff:\s*([0-9a-f]+)$/m.exec(proc.status);
  if (capabilities && (BigInt(`0x${capabilities[1]}`) >> CAP_SYS_NICE) & 1n) return true;
  // "Max nice priority  0  0": the soft limit lets the nice value go down to 20 - limit.
  const limit = /^Max nice priority\s+(\d+)/m.exec(proc.limits);
  return limit !== null && 20 - Number(limit[1]) <= nice;
}

/**
 * PORTICO_START_NICE: how many steps lower the start runs (0: not lowered),
 * a whole number from 0 to 19; anything else is the default here, and the
 * settings' reading (platform/src/settings.ts) stops the start naming it.
 * @param {string | undefined} raw
 * @returns {number}
 */
function startNiceOf(raw) {
  const value = Number(raw?.trim() || DEFAULT_START_NICE);
  return Number.isInteger(value) && value >= 0 && value <= 19 ? value : DEFAULT_START_NICE;
}

/** The thread ids of process `pid` (on Linux a nice value is each thread's), none once it is gone. */
function threadsOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/** `pid` and every process under it (the render workers, and those inside their sandboxes), from /proc. */
function processTree(pid) {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    for (const thread of threadsOf(tree[index])) {
      try {
        const children = readFileSync(`/proc/${tree[index]}/task/${thread}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(' ').map(Number));
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return tree;
}

/** Sets each thread of each of `pids` that is at `from` to `to`; a thread gone meanwhile is skipped. */
function renice(pids, from, to) {
  for (const pid of pids) {
    for (const thread of threadsOf(pid)) {
      try {
        if (os.getPriority(thread) === from) os.setPriority(thread, to);
      } catch {
        // Gone meanwhile, or a worker's own user's process this one may not change.
      }
    }
  }
}

/**
 * Lowers this process's priority for its start, when it may raise it back
 * (mayRaiseTo): every thread now, and what it starts meanwhile (its threads,
 * the render workers) inherits it. `restore()` (once the server is ready)
 * puts this process and every process under it back, so render workers
 * started during the start do not stay lowered; so does `withinMs`
 * (LOWERED_AT_MOST_MS) passing first.
 * @param {{ nice?: string, pid?: number, proc?: { status: string, limits: string }, withinMs?: number }} [options]
 * @returns {{ lowered: number, restore: () => void }}
 */
function lowerForStart(options = {}) {
  const pid = options.pid ?? process.pid;
  const steps = startNiceOf(options.nice ?? process.env.PORTICO_START_NICE);
  if (process.platform !== 'linux' || steps === 0 || !existsSync(`/proc/${pid}/task`)) return { lowered: 0, restore: () => undefined };
  const original = os.getPriority(pid);
  const lowered = Math.min(19, original + steps);
  const proc = options.proc ?? { status: readFileSync(`/proc/${pid}/status`, 'utf8'), limits: readFileSync(`/proc/${pid}/limits`, 'utf8') };
  if (lowered === original || !mayRaiseTo(original, proc)) return { lowered: 0, restore: () => undefined };
  renice([pid], original, lowered);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    clearTimeout(bound);
    renice(processTree(pid), lowered, original);
  };
  const bound = setTimeout(restore, options.withinMs ?? LOWERED_AT_MOST_MS);
  bound.unref();
  return { lowered: lowered - original, restore };
}

module.exports = { lowerForStart, mayRaiseTo, startNiceOf };
