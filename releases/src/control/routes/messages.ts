import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { toCsv } from '@portico/messages';
import { COMMON_HEADERS, declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { messagesRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control-context';

/**
 * The lender's inbox, for a token with the messages scope: the messages
 * (for a look, or an export: `export=csv` the CSV file, `export=json` JSON), one message, a deletion;
 * each audited under the token's name by the store.
 */
export const messageRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { list, get, delete: remove, delivery } = messagesRoutes;
  const operator = (request: Parameters<typeof context.actorOf>[0]) => context.needMessages(context.actorOf(request)).operator(context.actorOf(request).name);
  // The scope (and the messages being there) before anything else.
  const needMessages = async (request: Parameters<typeof context.actorOf>[0]) => void context.needMessages(context.actorOf(request));

  app.route({
    ...declared(list),
    preValidation: needMessages,
    handler: async (request, reply) => {
      const { export: format, ...query } = request.query;
      // A listing for an export says so, and in which format: the audit log tells a look from a copy.
      const listed = await operator(request).list({ ...query, ...(format === undefined ? {} : { export: format }) });
      // A CSV export is the file itself, as the audit says; JSON only when asked for (a look, or export=json).
      if (format !== 'csv') return answer(reply, list, 200, listed);
      // Not the route's JSON answer: the reply untyped by it.
      return (reply as FastifyReply)
        .code(200)
        .headers({
          ...COMMON_HEADERS,
          'Content-Type': 'text/csv; charset=utf-8',
          'Cache-Control': 'no-store',
          'Content-Disposition': 'attachment; filename="portico-messages.csv"',
        })
        .send(toCsv(listed));
    },
  });

  app.route({
    ...declared(delivery),
    preValidation: needMessages,
    handler: async (_request, reply) => answer(reply, delivery, 200, { channels: [...context.messageChannels] }),
  });

  app.route({
    ...declared(get),
    preValidation: needMessages,
    handler: async (request, reply) => {
      const message = await operator(request).get(request.params.id);
      if (!message) throw new HttpRefusal(404, `no message ${request.params.id}`);
      return answer(reply, get, 200, message);
    },
  });

  app.route({
    ...declared(remove),
    preValidation: needMessages,
    handler: async (request, reply) => {
      const { id } = request.params;
      if (!(await operator(request).delete(id))) throw new HttpRefusal(404, `no message ${id}`);
      return answer(reply, remove, 200, { deleted: id });
    },
  });
  done();
};
