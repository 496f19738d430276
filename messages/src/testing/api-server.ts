import type { Server } from 'node:http';
import Fastify from 'fastify';
import { closeNow, httpRoot, listenOn, urlOf } from '@portico/platform/http';
import { silentLogger, type Logger } from '@portico/platform/logging';
import { apiRoutes, type ContactEndpoint } from '../http/contact-routes';

/**
 * The host port's part that concerns contact messages: its `/api/` routes
 * (apiRoutes) on an app of their own, as `startPortico` registers them.
 * `headers`: the server's security headers on every answer (none by default);
 * `log`: the app's logger, which the routes' request lines go to (silent by default).
 */
export async function serveApi(
  service: { endpoint: ContactEndpoint | undefined },
  options: { port?: number; headers?: Readonly<Record<string, string>>; log?: Logger } = {},
): Promise<{ base: string; server: Server; close(): Promise<void> }> {
  const app = Fastify({ loggerInstance: options.log ?? silentLogger });
  await app.register(httpRoot, { trustProxy: false });
  await app.register(apiRoutes, { endpoint: () => service.endpoint, headers: options.headers ?? {} });
  await app.ready();
  const address = await listenOn(app.server, {
    port: options.port ?? 0,
    host: '127.0.0.1',
    taken: (port) => `port ${port} is taken`,
    failed: (port, error) => `cannot listen on ${port}: ${error.message}`,
  });
  return {
    base: urlOf(address),
    server: app.server,
    close: async () => {
      await closeNow(app.server);
      await app.close();
    },
  };
}
