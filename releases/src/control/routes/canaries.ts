import type { FastifyPluginCallback } from 'fastify';
import type { SectionId } from '@portico/contract/sections';
import { declared, type ZodTypeProvider } from '@portico/platform/http';
import { canariesRoutes } from '../control-contract';
import { answer, type ControlContext } from '../control-context';
import { sectionAnswers, type SectionAnswersOptions } from '../section-answers';

/** A section's canary: started (or its share and thresholds changed), promoted, aborted; each answers the section's state. */
export const canaryRoutes: FastifyPluginCallback<{ context: ControlContext; answers: SectionAnswersOptions }> = (fastify, { context, answers }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;
  const { start, promote, abort } = canariesRoutes;
  const stateOf = async (section: SectionId) => (await sectionAnswers(answers, [section]))[section]!;

  app.route({
    ...declared(start),
    // The section before the body: an unknown one 404, one the token does not cover 403.
    preValidation: async (request) => {
      await context.sectionFor(request, request.params.section);
    },
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = await context.sectionFor(request, request.params.section);
      const { release, ...settings } = request.body;
      await context.needReleaseOf(actor, release);
      await store.canaries.start(section, release, settings, actor.name);
      return answer(reply, start, 200, await stateOf(section));
    },
  });

  app.route({
    ...declared(promote),
    preValidation: async (request) => {
      await context.sectionFor(request, request.params.section);
    },
    handler: async (request, reply) => {
      const section = await context.sectionFor(request, request.params.section);
      await store.canaries.promote(section, context.actorOf(request).name, request.body.note);
      return answer(reply, promote, 200, await stateOf(section));
    },
  });

  app.route({
    ...declared(abort),
    preValidation: async (request) => {
      await context.sectionFor(request, request.params.section);
    },
    handler: async (request, reply) => {
      const section = await context.sectionFor(request, request.params.section);
      await store.canaries.abort(section, context.actorOf(request).name, 'abort', request.body.note);
      return answer(reply, abort, 200, await stateOf(section));
    },
  });
  done();
};
