import type { FastifyInstance } from 'fastify';

/** The addresses a visitor asks for first: the page in both languages and its config.json. */
const FIRST_ASKED = ['/', '/?type=2', '/config.json'];
/** Two passes: the first fills the caches, the second runs the code the first made hot. */
const PASSES = 2;
/** The start is held this long at most (issue 47's start target counts it). */
const WARM_WITHIN_MS = 1000;

/**
 * Answers the first visitors' requests once, inside the process, before the
 * page's port opens. A load balancer sends visitors the moment the port
 * answers, and a fresh process's first answers are slow: its code not yet
 * optimised, the page, config.json and headers not yet kept (on a busy
 * machine here, the first page took 459 ms against 9 ms two seconds later,
 * bench/bench-restart.ts's slowest requests during a restart). Each
 * request is asked as a visitor to one of `hosts` asks it (behind the
 * trusted proxy, through its X-Forwarded-* headers); what it answers is
 * thrown away, and a refusal or a failure only ends the warm-up early.
 */
export async function warmAnswers(app: FastifyInstance, hosts: readonly string[], trustProxy: boolean): Promise<void> {
  const until = performance.now() + WARM_WITHIN_MS;
  for (let pass = 0; pass < PASSES; pass++) {
    for (const host of hosts) {
      const headers = { host, 'accept-encoding': 'br, gzip', ...(trustProxy ? { 'x-forwarded-host': host, 'x-forwarded-proto': 'http' } : {}) };
      for (const url of FIRST_ASKED) {
        if (performance.now() > until) return;
        const answer = await app.inject({ method: 'GET', url, headers }).catch(() => undefined);
        // A host this request cannot stand for (a rule without a port matches the socket's, which an injected request has none of): the next.
        if (answer?.statusCode !== 200) break;
      }
    }
  }
}
