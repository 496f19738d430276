import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { sectionOfScopes } from '../scopes';
import type { OpenSession } from './console-sessions';
import { clearedSessionCookie, reachedOverHttps, sessionCookie, sessionCookieOf } from './console-session-auth';
import { sessionRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control/control-context';

/** A session as the console reads it: the actor with its one section, if one. */
function shown(session: OpenSession) {
  const section = sectionOfScopes(session.actor.scopes);
  return {
    actor: { name: session.actor.name, scopes: [...session.actor.scopes], ...(section ? { section } : {}) },
    csrf: session.csrf,
    idleExpiresAt: session.idleExpiresAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
  };
}

/**
 * The console's sessions (docs/console.md): a sign-in with a token, answered
 * with the session cookie; who the session is; a sign-out. The sign-in's
 * failures count toward the failed-authentication limit of bad bearer
 * tokens, per address; a valid token signs in whatever that limit says.
 */
export const sessionAreaRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { create, show, delete: remove } = sessionRoutes;
  const { failedAuth } = context;

  app.route({
    ...declared(create),
    handler: async (request, reply: FastifyReply) => {
      const req = request.raw;
      const address = req.socket.remoteAddress ?? 'unknown';
      // The token first: the limit holds back failing attempts only, so no one who shares the owner's address can lock the owner out.
      const session = await context.store.sessions.open(request.body.token);
      if (!session) {
        const wait = failedAuth.retryAfter(address);
        if (wait !== undefined)
          throw new HttpRefusal(429, `too many failed authentications from ${address}; try again in ${wait} s`, {}, { 'Retry-After': String(wait) });
        failedAuth.fail(address);
        // The address, an operator's, against token guessing (docs/privacy.md); never the token.
        request.log.warn({ address }, 'control: a console sign-in with an unknown or revoked token');
        throw new HttpRefusal(401, 'the token is unknown or revoked');
      }
      // A sign-in over a session ends it: a session id is never carried across a sign-in.
      const previous = sessionCookieOf(req);
      if (previous !== undefined) await context.store.sessions.end(previous);
      reply.header('Set-Cookie', sessionCookie(session.id, session.seconds, reachedOverHttps(req)));
      return answer(reply, create, 201, shown(session));
    },
  });

  app.route({
    ...declared(show),
    handler: async (request, reply) => {
      const held = context.sessionOf(request);
      if (!held) throw new HttpRefusal(404, 'a bearer token has no console session');
      return answer(reply, show, 200, shown(held.session));
    },
  });

  app.route({
    ...declared(remove),
    handler: async (request, reply) => {
      const held = context.sessionOf(request);
      if (!held) throw new HttpRefusal(404, 'a bearer token has no console session');
      await context.store.sessions.end(held.id);
      reply.header('Set-Cookie', clearedSessionCookie(reachedOverHttps(request.raw)));
      return answer(reply, remove, 200, { signedOut: true });
    },
  });
  done();
};
