import type { FastifyPluginCallback } from 'fastify';
import { COMMON_HEADERS } from '@portico/platform/http';
import type { Actor } from '../release';
import { mayActOn } from '../scopes';
import type { ConsoleEvents } from './console-events';
import { EVENTS_PATH, type ConsoleEvent } from '@portico/control-contract';
import type { ControlContext } from '../control/control-context';

/** A comment line this often keeps proxies from closing a quiet stream. */
const EVENTS_KEEPALIVE_MS = 15_000;
/**
 * How often a stream asks again whether what opened it still holds (its
 * token not revoked, its session not ended), besides at once on every
 * `tokens` change: the bound on a revocation no notification told of, well
 * within the 15 s a revoked stream may live (docs/console-api.md).
 */
const EVENTS_RECHECK_MS = 5000;
/** Events within this long of each other go out together, each once. */
const COALESCE_MS = 100;

/**
 * Whether `actor` may hear of `event`: only what it may see changes for it.
 * A section token hears only of its sections: an event of no section (a
 * server's heartbeat, the whole health, a token made) tells of others' too;
 * the hub says each section's changes with its section (console-events.ts).
 */
function mayHear(actor: Actor, event: ConsoleEvent): boolean {
  switch (event.kind) {
    case 'messages':
      return actor.scopes.includes('messages');
    case 'tokens':
    case 'alerts':
      return actor.scopes.includes('releases');
    default:
      return event.section === undefined ? actor.scopes.includes('releases') : mayActOn(actor, event.section);
  }
}

/**
 * `GET /api/events`: Server-Sent Events, a `change` whenever something the
 * asker may see changes on any server (console-events.ts), each event's
 * data a ConsoleEvent's JSON. The console refetches what it names.
 */
export function eventRoutes(events: () => ConsoleEvents, recheckMs = EVENTS_RECHECK_MS): FastifyPluginCallback<{ context: ControlContext }> {
  return (fastify, { context }, done) => {
    fastify.route({
      method: 'GET',
      url: EVENTS_PATH,
      handler: (request, reply) => {
        const actor = context.actorOf(request);
        const session = context.sessionOf(request);
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
        // A browser's EventSource reconnects after this long if the stream drops.
        res.write('retry: 2000\n\n');
        const pending = new Map<string, ConsoleEvent>();
        let flush: NodeJS.Timeout | undefined;
        // A session's stream lasts while its session does (which ends with its token); a bearer's while its token does.
        // A check that cannot be made ends the stream too: the console opens it again, authenticated afresh.
        const holds = () => (session ? context.store.sessions.live(session.id) : context.store.tokens.stillValid(actor)).catch(() => false);
        const recheck = () =>
          void holds().then((held) => {
            if (held || res.writableEnded) return;
            stop();
            res.end();
          });
        const unsubscribe = events().subscribe((event) => {
          // A revocation on any server is a `tokens` change, which every stream hears of, whatever it may hear.
          if (event.kind === 'tokens') recheck();
          if (!mayHear(actor, event)) return;
          pending.set(JSON.stringify(event), event);
          flush ??= setTimeout(() => {
            flush = undefined;
            for (const text of pending.keys()) res.write(`event: change\ndata: ${text}\n\n`);
            pending.clear();
          }, COALESCE_MS);
        });
        const rechecks = setInterval(recheck, recheckMs);
        const keepalive = setInterval(() => res.write(': keepalive\n\n'), EVENTS_KEEPALIVE_MS);
        function stop() {
          unsubscribe();
          clearInterval(rechecks);
          clearInterval(keepalive);
          clearTimeout(flush);
        }
        res.on('close', stop);
        request.raw.on('close', stop);
      },
    });
    done();
  };
}
