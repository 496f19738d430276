import type { FastifyPluginCallback } from 'fastify';
import { declared, type ZodTypeProvider } from '@portico/platform/http';
import type { AlertSender } from '../jobs/alert-sender';
import type { HealthPoint, HealthSeriesSource } from '../release';
import { alertsRoutes, healthSeriesRoutes, serversRoutes } from '@portico/control-contract';
import { answer, type ControlContext } from '../control/control-context';

/**
 * What the console's screens read beside the other areas' routes: the
 * servers on the database, a section's health hour by hour, and (for an
 * integrator) where alerts go.
 */
export const consoleRoutes: FastifyPluginCallback<{
  context: ControlContext;
  healthSeries: HealthSeriesSource | undefined;
  alerts: Pick<AlertSender, 'canSend' | 'sendTest'> | undefined;
}> = (fastify, { context, healthSeries, alerts }, done) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = context;

  app.route({
    ...declared(serversRoutes.list),
    handler: async (request, reply) => {
      // The overview's: for a token that sees a section (a messages token sees the inbox only), and of a server only its sections' releases.
      const actor = context.actorOf(request);
      const sections = await context.sectionsToShow(actor, undefined);
      return answer(reply, serversRoutes.list, 200, await store.servers.list(actor.scopes.includes('releases') ? undefined : sections));
    },
  });

  const { series } = healthSeriesRoutes;
  app.route({
    ...declared(series),
    handler: async (request, reply) => {
      // A retired section's history stays readable.
      const section = await context.sectionFor(request, request.params.section, { retired: true });
      const since = new Date(Date.now() - request.query.hours * 3_600_000);
      const state = (await store.releases.sectionStates([section]))[section];
      if (!state) return answer(reply, series, 200, { section, since: since.toISOString(), releases: [] });
      const inView = [
        ...(state.active ? [{ release: state.active.id, state: 'active' as const }] : []),
        ...(state.candidate ? [{ release: state.candidate.id, state: 'candidate' as const }] : []),
        ...(state.previous ? [{ release: state.previous.id, state: 'previous' as const }] : []),
      ];
      const source = healthSeries;
      const read = async (from: Date): Promise<Record<string, HealthPoint[]>> =>
        source
          ? source(
              section,
              inView.map(({ release }) => release),
              from,
            )
          : {};
      const points = await read(since);
      const body = {
        section,
        since: since.toISOString(),
        releases: inView.map((view) => ({ ...view, points: points[view.release] ?? [] })),
      };
      if (!state.canary) return answer(reply, series, 200, body);
      // A canary's two releases since it started: what its judge compares.
      const sinceStart = await read(new Date(state.canary.startedAt));
      const judged = inView.filter((view) => view.state !== 'previous').map((view) => ({ ...view, points: sinceStart[view.release] ?? [] }));
      return answer(reply, series, 200, { ...body, canary: { ...state.canary, releases: judged } });
    },
  });

  const { show, set, test } = alertsRoutes;
  // What this server can send, beside the settings: "saved" alone hid a webhook without a secret to sign it (issue 49).
  const withChannels = <T extends object>(settings: T) => (alerts ? { ...settings, canSend: alerts.canSend } : settings);
  const needAlerts = async (request: Parameters<typeof context.actorOf>[0]) =>
    context.needScope(context.actorOf(request), 'releases', 'read or change the alerts');
  app.route({
    ...declared(show),
    preValidation: needAlerts,
    handler: async (_request, reply) => answer(reply, show, 200, withChannels(await store.alertSettings.get())),
  });
  app.route({
    ...declared(set),
    preValidation: needAlerts,
    handler: async (request, reply) => {
      const settings = await store.alertSettings.set(request.body);
      await store.audit.record({ actor: context.actorOf(request).name, action: 'alerts', detail: `alerts set: ${JSON.stringify(request.body)}` });
      return answer(reply, set, 200, withChannels(settings));
    },
  });
  app.route({
    ...declared(test),
    preValidation: needAlerts,
    handler: async (request, reply) => {
      const actor = context.actorOf(request).name;
      const outcomes = alerts ? await alerts.sendTest(actor) : [];
      const said = outcomes.map((outcome) => `${outcome.channel} ${outcome.sent ? 'sent' : 'not sent'}: ${outcome.detail}`).join('; ');
      await store.audit.record({ actor, action: 'alerts', detail: `test alert: ${said || 'no channel set'}` });
      return answer(reply, test, 200, { outcomes });
    },
  });
  done();
};
