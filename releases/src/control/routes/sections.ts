import type { FastifyPluginCallback } from 'fastify';
import { declared, type ZodTypeProvider } from '@portico/platform/http';
import { sectionsRoutes } from '../control-contract';
import { answer, type ControlContext } from '../control-context';
import { sectionAnswers } from '../section-answers';

/** The sections: an activation, a rollback, the integrator's grant, and every section's state with its releases' health. */
export const sectionRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;
  const { activate, rollback, grant, status } = sectionsRoutes;

  app.route({
    ...declared(activate),
    // The section before the body: an unknown one 404, one the token does not cover 403.
    preValidation: async (request) => void context.sectionFor(request, request.params.section),
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = context.sectionFor(request, request.params.section);
      await context.needReleaseOf(actor, request.body.release);
      return answer(reply, activate, 200, await store.history.activate(section, request.body.release, actor.name, request.body.note));
    },
  });

  app.route({
    ...declared(rollback),
    preValidation: async (request) => void context.sectionFor(request, request.params.section),
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = context.sectionFor(request, request.params.section);
      const { release, note } = request.body;
      if (release !== undefined) await context.needReleaseOf(actor, release);
      return answer(reply, rollback, 200, await store.history.rollback(section, release, actor.name, note));
    },
  });

  app.route({
    ...declared(grant),
    // The integrator's decision: a section's own token cannot grant its builds script (403 before the body is read).
    preValidation: async (request) => {
      context.sectionFor(request, request.params.section);
      context.needScope(context.actorOf(request), 'releases', "change a section's grant");
    },
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = context.sectionFor(request, request.params.section);
      const { interactive } = await store.grants.set(section, { interactive: request.body.interactive }, actor.name, request.body.note);
      return answer(reply, grant, 200, { section, interactive });
    },
  });

  app.route({
    ...declared(status),
    handler: async (request, reply) =>
      answer(reply, status, 200, await sectionAnswers(context.options, context.sectionsToShow(context.actorOf(request), undefined), request.query.hours)),
  });
  done();
};
