import type { FastifyPluginCallback } from 'fastify';
import { declared, HttpRefusal, type ZodTypeProvider } from '@portico/platform/http';
import { previewUrl, signPreview } from '../../preview-link';
import { notRun, refusalSummary, type PublishChecks } from '../../release';
import { DEFAULT_PREVIEW_SECONDS, releasesRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control-context';

/** Where a refused origin is allowed from: config.json for a built-in section, the section's own entry for an added one. */
function howToAllow(section: string, origin: string, builtIn: boolean): string {
  if (!builtIn)
    return `(the section's origins, which the integrator sets: npm run release -- section set ${section} --origin ${origin}, or PATCH /api/sections/${section} { "origins" }; no restart)`;
  return (
    `(the origin of config.json's remotes.${section}, and allowedRemoteOrigins). ` +
    `To publish from ${origin}, the operator adds it to allowedRemoteOrigins in config.json, which the server reads on every publish: no restart ` +
    `(an origin there may also serve any section to a visit that asks for it with ?remote.<section>=)`
  );
}

/**
 * The releases: a publish (every check before anything is stored; a token
 * whose publishes keep being refused is held back, PublishGate), the
 * listing, and a preview link.
 */
export const releaseRoutes: FastifyPluginCallback<{ context: ControlContext; publishChecks: PublishChecks; publicUrl: string }> = (
  fastify,
  { context, publishChecks, publicUrl },
  done,
) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;
  const { publish, list, preview } = releasesRoutes;

  app.route({
    ...declared(publish),
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const input = request.body;
      const section = await context.sectionOf(input.section);
      context.needSection(actor, section);
      context.publishes.holdBack(actor.name, section);
      let outcome;
      let builtIn = true;
      try {
        const entry = (await store.sections.get(section))!;
        // An added section's releases come from its own origins; a built-in one's from config.json's.
        builtIn = entry.builtIn;
        const origins = builtIn ? undefined : entry.origins;
        outcome = await publishChecks({ section, manifestUrl: input.manifestUrl, grant: { interactive: entry.interactive }, origins });
      } catch (error) {
        // The checks report what they find as failed checks; a throw is the checker itself failing.
        request.log.error({ err: error, section }, 'control: the publish checks could not run');
        throw new HttpRefusal(503, `the publish checks could not run: ${(error as Error).message}`, {}, { 'Retry-After': '5' });
      }
      if (outcome.refusedOrigin !== undefined) {
        context.publishes.refused(actor.name);
        const allowed = outcome.allowedOrigins ?? [];
        const error =
          `${outcome.refusedOrigin} is not one of ${section}'s release origins, so nothing was fetched from it. ` +
          `${section}'s release origins: ${allowed.length > 0 ? allowed.join(', ') : 'none'} ${howToAllow(section, outcome.refusedOrigin, builtIn)}`;
        await store.audit.record({
          actor: actor.name,
          action: 'publish-refused',
          section,
          detail: `${input.manifestUrl}: ${outcome.refusedOrigin} is not one of ${section}'s release origins`,
          facts: { kind: 'publish-refused', manifestUrl: input.manifestUrl, failed: [], notRun: 0, origin: outcome.refusedOrigin },
        });
        throw new HttpRefusal(422, error, { origin: outcome.refusedOrigin, allowedOrigins: allowed, checks: outcome.checks });
      }
      if (!outcome.ok || !outcome.manifest) {
        context.publishes.refused(actor.name);
        // The checks that ran and failed; those an earlier failure kept from running are counted, never listed as failed.
        const failed = outcome.checks.filter((check) => !check.ok && !notRun(check));
        const skipped = outcome.checks.filter(notRun).length;
        const detail = [...failed.map((check) => `${check.name}: ${check.detail}`), ...(skipped > 0 ? [`${skipped} not run`] : [])].join('; ');
        await store.audit.record({
          actor: actor.name,
          action: 'publish-refused',
          section,
          detail: `${input.manifestUrl}: ${detail || 'the checks gave no manifest'}`,
          // The checks' ids and reasons as they wrote them; the console words the sentence around them.
          facts: {
            kind: 'publish-refused',
            manifestUrl: input.manifestUrl,
            failed: failed.map((check) => ({ check: check.name, reason: check.detail })),
            notRun: skipped,
          },
        });
        throw new HttpRefusal(422, refusalSummary(outcome.checks), { checks: outcome.checks });
      }
      const { release, created } = await store.releases.publish({
        section,
        manifestUrl: input.manifestUrl,
        ...outcome.manifest,
        createdBy: actor.name,
        note: input.note ?? null,
        checks: outcome.checks,
      });
      const { checks: _checks, broken, ...shown } = release;
      // The same URL and bytes again: the release published before, said so (`republished`), its note its own.
      return answer(reply, publish, created ? 201 : 200, { ...shown, ...(broken ? { broken } : {}), ...(created ? {} : { republished: true as const }) });
    },
  });

  app.route({
    ...declared(list),
    handler: async (request, reply) =>
      answer(reply, list, 200, await store.releases.list({ sections: await context.sectionsToShow(context.actorOf(request), request.query.section) })),
  });

  app.route({
    ...declared(preview),
    handler: async (request, reply) => {
      const actor = context.actorOf(request);
      const { id } = request.params;
      const release = await store.releases.get(id);
      if (!release) throw new HttpRefusal(404, `no release ${id}`);
      context.needSection(actor, release.section);
      // A retired section's releases are kept, never shown again.
      await context.sectionOf(release.section);
      const expiresAt = new Date(Date.now() + (request.body.expiresIn ?? DEFAULT_PREVIEW_SECONDS) * 1000);
      // Whole seconds, as the token carries it.
      expiresAt.setMilliseconds(0);
      const url = previewUrl(publicUrl, signPreview(await store.previewSecret(), { release: release.id, expiresAt }), release.section);
      await store.audit.record({
        actor: actor.name,
        action: 'preview',
        section: release.section,
        release: release.id,
        detail: `a preview link until ${expiresAt.toISOString()}`,
        facts: { kind: 'preview', until: expiresAt.toISOString() },
      });
      return answer(reply, preview, 201, { url, expiresAt: expiresAt.toISOString() });
    },
  });
  done();
};
