import type { FastifyPluginCallback } from 'fastify';
import type { MessageAccessEntry } from '@portico/messages';
import { declared, type ZodTypeProvider } from '@portico/platform/http';
import type { AuditEntry } from '../../release';
import { visibleSections } from '../../scopes';
import { auditRoutes } from '../control-contract';
import { answer, type ControlContext } from '../control-context';

/** A messages audit entry in the audit log's shape: no section, release or `from`. */
function asAuditEntry(entry: MessageAccessEntry): AuditEntry {
  return { at: entry.at, actor: entry.actor, action: entry.action, section: null, release: null, from: null, detail: entry.detail };
}

/**
 * The audit log, newest first: an integrator sees everything, a section
 * token its sections' entries, a messages token who read, exported or
 * deleted messages (beside the rest it may see).
 */
export const auditLogRoutes: FastifyPluginCallback<{ context: ControlContext }> = (fastify, { context }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { list } = auditRoutes;
  app.route({
    ...declared(list),
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const { section: asked, limit } = request.query;
      const { messages } = context.options;
      // Who read, exported or deleted messages: shown to a messages token, in the whole log (no section asked).
      const accesses = asked === undefined && actor.scopes.includes('messages') && messages ? await messages.accessLog({ limit }) : undefined;
      // A messages token with no section sees those alone.
      if (accesses && visibleSections(actor).length === 0) return answer(reply, list, 200, accesses.map(asAuditEntry));
      // An integrator sees everything, token changes included; a section token its sections' entries.
      const sections = asked === undefined && actor.scopes.includes('releases') ? undefined : context.sectionsToShow(actor, asked);
      const entries = await context.store.audit.list({ sections, limit });
      if (!accesses) return answer(reply, list, 200, entries);
      return answer(reply, list, 200, [...entries, ...accesses.map(asAuditEntry)].sort((a, b) => b.at.localeCompare(a.at)).slice(0, limit));
    },
  });
  done();
};
