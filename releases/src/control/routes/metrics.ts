import type { FastifyPluginCallback } from 'fastify';
import { HttpRefusal, PLAIN_HEADERS } from '@portico/platform/http';
import { holdsScope } from '../../scopes';
import type { ControlContext } from '../control-context';

/** Where a scraper reads the server's metrics: outside `/api/`, where Prometheus looks by default. */
export const METRICS_PATH = '/metrics';

/** The server's metrics as a scrape reads them: the text and its type (Prometheus' text format). */
export type MetricsSource = () => Promise<{ contentType: string; text: string }>;

/**
 * `GET /metrics` for a token holding the `metrics` scope (a scraper's own,
 * or an integrator's or the owner's, which imply it): 403 for any other,
 * after the API's first hook has refused no token (401) and unknown ones.
 * The text is the server's to make (server/src/metrics); this area only
 * guards it, so the releases package needs no metrics library.
 */
export const metricsRoutes: FastifyPluginCallback<{ context: ControlContext; metrics: MetricsSource }> = (app, { context, metrics }, done) => {
  app.get(METRICS_PATH, {
    preValidation: async (request) => {
      const actor = context.actorOf(request);
      if (!holdsScope(actor, 'metrics')) throw new HttpRefusal(403, `the token ${actor.name} may not read the metrics (it needs the metrics scope)`);
    },
    handler: async (_request, reply) => {
      const { contentType, text } = await metrics();
      return reply
        .code(200)
        .headers({ ...PLAIN_HEADERS, 'Content-Type': contentType })
        .send(text);
    },
  });
  done();
};
