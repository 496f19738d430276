import type { FastifyPluginCallback } from 'fastify';
import { declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { configRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control-context';

/** What the config.json being served gets wrong and lacks (`GET /api/config`). */
export type ConfigReportSource = () => Promise<{ problems: { field: string; message: string }[]; warnings: { field: string; message: string }[] }>;

/** What the config.json being served gets wrong and lacks: any valid token, since it is every team's to know and holds no secret. Without `configReport` it answers 503. */
export const configReportRoutes: FastifyPluginCallback<{ context: ControlContext; configReport: ConfigReportSource | undefined }> = (
  fastify,
  { configReport },
  done,
) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { report } = configRoutes;
  app.route({
    ...declared(report),
    handler: async (_request, reply) => {
      if (!configReport) throw new HttpRefusal(503, 'the config.json report is not available on this server');
      return answer(reply, report, 200, await configReport());
    },
  });
  done();
};
