import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { declared, type ZodTypeProvider } from '@portico/platform/http';
import { sectionsRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control-context';
import { sectionAnswers, type SectionAnswersOptions } from '../section-answers';
import type { CatalogueEntry } from '../../store/section-catalogue';

/** The sections: an activation, a rollback, the catalogue's add, change and retirement (the integrator's), and every section's state with its releases' health. */
export const sectionRoutes: FastifyPluginCallback<{ context: ControlContext; answers: SectionAnswersOptions }> = (fastify, { context, answers }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;
  const { activate, rollback, add, change, retire, status } = sectionsRoutes;

  app.route({
    ...declared(activate),
    // The section before the body: an unknown one 404, one the token does not cover 403 (or whose policy keeps activations to the integrator).
    preValidation: async (request) => {
      const section = await context.sectionFor(request, request.params.section);
      await context.needPolicy(context.actorOf(request), section, 'activate', `activate a release of ${section}`);
    },
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = await context.sectionFor(request, request.params.section);
      await context.needReleaseOf(actor, request.body.release);
      return answer(reply, activate, 200, await store.history.activate(section, request.body.release, actor.name, request.body.note));
    },
  });

  app.route({
    ...declared(rollback),
    preValidation: async (request) => {
      const section = await context.sectionFor(request, request.params.section);
      await context.needPolicy(context.actorOf(request), section, 'activate', `roll back ${section}`);
    },
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = await context.sectionFor(request, request.params.section);
      const { release, note } = request.body;
      if (release !== undefined) await context.needReleaseOf(actor, release);
      return answer(reply, rollback, 200, await store.history.rollback(section, release, actor.name, note));
    },
  });

  // The catalogue is the integrator's: a section's own token cannot add, change or retire a section (403 before the body is read).
  const needIntegrator = (request: FastifyRequest) =>
    context.needScope(context.actorOf(request), 'releases', "change a section's grant or entry, add or retire a section");
  const shown = (entry: CatalogueEntry) => ({ section: entry.id, ...entry, order: entry.order ?? null });

  app.route({
    ...declared(add),
    preValidation: async (request) => needIntegrator(request),
    handler: async (request, reply) => {
      return answer(reply, add, 201, shown(await store.sections.add(request.body, context.actorOf(request).name)));
    },
  });

  app.route({
    ...declared(change),
    preValidation: async (request) => {
      await context.sectionFor(request, request.params.section);
      needIntegrator(request);
    },
    handler: async (request, reply) => {
      const section = await context.sectionFor(request, request.params.section);
      return answer(reply, change, 200, shown(await store.sections.change(section, request.body, context.actorOf(request).name)));
    },
  });

  app.route({
    ...declared(retire),
    preValidation: async (request) => {
      await context.sectionFor(request, request.params.section);
      needIntegrator(request);
    },
    handler: async (request, reply) => {
      const section = await context.sectionFor(request, request.params.section);
      return answer(reply, retire, 200, shown(await store.sections.retire(section, context.actorOf(request).name, request.body.note)));
    },
  });

  app.route({
    ...declared(status),
    handler: async (request, reply) =>
      answer(reply, status, 200, await sectionAnswers(answers, await context.sectionsToShow(context.actorOf(request), undefined), request.query.hours)),
  });
  done();
};
