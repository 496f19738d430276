import type { FastifyPluginCallback } from 'fastify';
import type { SectionId } from '@portico/contract/sections';
import { declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { canariesRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control-context';
import { sectionAnswers, type SectionAnswersOptions } from '../section-answers';

/** A section's canary: started (or its share and thresholds changed), promoted, aborted; each answers the section's state. */
export const canaryRoutes: FastifyPluginCallback<{ context: ControlContext; answers: SectionAnswersOptions }> = (fastify, { context, answers }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;
  const { start, promote, abort } = canariesRoutes;
  const stateOf = async (section: SectionId) => (await sectionAnswers(answers, [section]))[section]!;
  /**
   * With no active release a canary is judged against config.json's URL,
   * which an added section may not have (its visitors outside the cohort
   * would get no tab): 409 then, naming what to do instead.
   */
  const needBaseline = async (section: SectionId) => {
    if (!answers.configuredRemotes || (await store.releases.active())[section]) return;
    if ((await answers.configuredRemotes())[section]) return;
    throw new HttpRefusal(
      409,
      `${section} has no active release and no URL in config.json (remotes.${section}), so a canary has nothing to be judged against: activate a release first (a preview link shows one before that)`,
    );
  };

  app.route({
    ...declared(start),
    // The section before the body: an unknown one 404, one the token does not cover 403 (or whose policy keeps canaries to the integrator).
    preValidation: async (request) => {
      const section = await context.sectionFor(request, request.params.section);
      await context.needPolicy(context.actorOf(request), section, 'canary', `start a canary of ${section}`);
    },
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const section = await context.sectionFor(request, request.params.section);
      const { release, ...settings } = request.body;
      // The judge's promotion is an activation: a canary set to promote itself needs what an activation needs.
      if (settings.promoteAfterVisits !== undefined && settings.promoteAfterVisits !== null)
        await context.needPolicy(actor, section, 'activate', `start a canary of ${section} that promotes itself (--promote-after)`);
      await context.needReleaseOf(actor, release);
      await needBaseline(section);
      await store.canaries.start(section, release, settings, actor.name);
      return answer(reply, start, 200, await stateOf(section));
    },
  });

  app.route({
    ...declared(promote),
    preValidation: async (request) => {
      const section = await context.sectionFor(request, request.params.section);
      await context.needPolicy(context.actorOf(request), section, 'activate', `promote ${section}'s canary`);
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
