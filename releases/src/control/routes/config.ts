import type { FastifyPluginCallback } from 'fastify';
import { declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { configRoutes } from '../control-contract';
import { answer, type ControlContext } from '../control-context';

/** What the config.json being served gets wrong and lacks: any valid token, since it is every team's to know and holds no secret. */
export const configReportRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { report } = configRoutes;
  app.route({
    ...declared(report),
    handler: async (_request, reply) => {
      if (!context.options.configReport) throw new HttpRefusal(503, 'the config.json report is not available on this server');
      return answer(reply, report, 200, await context.options.configReport());
    },
  });
  done();
};
