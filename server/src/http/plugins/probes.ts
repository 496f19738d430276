import type { FastifyPluginCallback } from 'fastify';
import { sendPlain } from '@portico/platform/http';

/** Where an orchestrator asks whether the process serves, and whether it should be sent visitors. */
const LIVE_PATH = '/livez';
const READY_PATH = '/readyz';

/** Why the server should get no visitors now (draining, no render worker warm yet), or undefined when it should. */
export type NotReady = () => string | undefined;

/**
 * The host port's probes (docs/deploy.md): `/livez` answers 200 while the
 * process serves; `/readyz` 200 once the first render worker is warm (the
 * releases were read before the port opened), 503 with the reason before
 * that and while the server drains on SIGTERM. The database is not asked:
 * losing it later makes no server unready (every server would leave the
 * rotation at once while each still serves the page). Never cached.
 */
export const probes: FastifyPluginCallback<{ notReady: NotReady }> = (app, { notReady }, done) => {
  const noStore = { 'Cache-Control': 'no-store' };
  app.get(LIVE_PATH, (_request, reply) => sendPlain(reply, 200, 'alive', noStore));
  app.get(READY_PATH, (_request, reply) => {
    const reason = notReady();
    return reason === undefined ? sendPlain(reply, 200, 'ready', noStore) : sendPlain(reply, 503, `not ready: ${reason}`, noStore);
  });
  done();
};
