import type { FastifyPluginCallback } from 'fastify';
import { declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { mayGrant } from '../../scopes';
import { tokensRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control-context';

/** Tokens, for a token with the releases scope: the live ones, a new one (shown once), a revocation. A token grants only what it holds. */
export const tokenRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;
  const { list, create, revoke } = tokensRoutes;
  const needTokens = async (request: Parameters<typeof context.actorOf>[0]) => context.needScope(context.actorOf(request), 'releases', 'manage tokens');

  app.route({
    ...declared(list),
    preValidation: needTokens,
    // Names, scopes and who made them: never a token, which no row holds.
    handler: async (_request, reply) => answer(reply, list, 200, await store.tokens.list()),
  });

  app.route({
    ...declared(create),
    // The scope before the body.
    preValidation: needTokens,
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const input = request.body;
      const section = input.section === undefined || input.section === null ? null : await context.sectionOf(input.section);
      const scopes = input.scopes ?? [section ? (`section:${section}` as const) : ('releases' as const)];
      if (!mayGrant(actor, scopes)) throw new HttpRefusal(403, `the token ${actor.name} may not grant ${scopes.join(', ')}: a token grants only what it holds`);
      return answer(reply, create, 201, await store.tokens.create({ name: input.name, section, scopes, actor: actor.name }));
    },
  });

  app.route({
    ...declared(revoke),
    preValidation: needTokens,
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const { name } = request.params;
      const token = await store.tokens.find(name);
      if (!token) throw new HttpRefusal(404, `no token ${name}`);
      if (!mayGrant(actor, token.scopes)) throw new HttpRefusal(403, `the token ${actor.name} may not revoke ${name}, which holds more than it does`);
      if (!(await store.tokens.revoke(name, actor.name))) throw new HttpRefusal(404, `no token ${name}`);
      return answer(reply, revoke, 200, { name, revoked: true });
    },
  });
  done();
};
