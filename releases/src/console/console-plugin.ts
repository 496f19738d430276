import type { FastifyPluginAsync } from 'fastify';
import type { AlertSender } from '../jobs/alert-sender';
import type { HealthSeriesSource } from '../release';
import type { ControlContext } from '../control/control-context';
import { startConsoleEvents } from './console-events';
import { consoleFileRoute, type ConsoleFiles } from './console-files';
import { consoleRoutes } from './console-routes';
import { eventRoutes } from './event-routes';
import { sessionAreaRoutes } from './session-routes';

export interface ConsolePluginOptions {
  context: ControlContext;
  /** A section's health hour by hour (HealthStore.series); without it every series is empty. */
  healthSeries: HealthSeriesSource | undefined;
  /** This server's alert sender (what it can send, a test alert); without it a test alert sends nothing. */
  alerts: Pick<AlertSender, 'canSend' | 'sendTest'> | undefined;
  /** Whether the contact messages are this API's (their changes are then streamed too). */
  withMessages: boolean;
  /** How often an event stream asks again whether its token or session holds (tests; EVENTS_RECHECK_MS by default). */
  eventsRecheckMs?: number;
  /** The console's built files, at every path outside /api/; none: the control port answers 404 there. */
  files?: ConsoleFiles;
}

/**
 * The operator console's part of the control API, one plugin: its sign-in
 * and session, what its screens read beside the other areas (servers, a
 * section's hourly health, the alerts' settings) and its live updates
 * (`GET /api/events`, from the database's change channel, listened to while
 * the app is open and closed with it), and its built files (consoleFileRoute).
 * The control API's hooks (the Host check, authentication) run before each
 * of these routes as before any other area's.
 */
export const consolePlugin: FastifyPluginAsync<ConsolePluginOptions> = async (app, options) => {
  const { context } = options;
  const events = await startConsoleEvents(context.store.db, { withMessages: options.withMessages });
  app.addHook('onClose', () => events.close());
  await app.register(sessionAreaRoutes, { context });
  await app.register(consoleRoutes, { context, healthSeries: options.healthSeries, alerts: options.alerts });
  await app.register(
    eventRoutes(() => events, options.eventsRecheckMs),
    { context },
  );
  if (options.files) await app.register(consoleFileRoute, { files: options.files });
};
