import type { FastifyPluginCallback } from 'fastify';
import { BEACON_PATH, VISIT_PATH } from '@portico/contract/beacon';
import type { ServedState } from '@portico/releases';
import { REPORTS, type BeaconEndpoint } from '../../beacon/beacon-endpoint';

export interface BeaconRoutesOptions {
  endpoint: BeaconEndpoint;
  /** What this server serves now: the canaries a report or an id may count for. */
  served: () => ServedState | undefined;
}

/**
 * `POST /api/beacon` (the page's visit reports) and `POST /api/visit` (its
 * visit ids), on the host's port: the method, the origin, the type and the
 * store checked before a byte of the body is read (any other method: 405
 * with `Allow: POST`), the body read by the endpoint's own parser (4 KB,
 * nothing past it read).
 */
export const beaconRoutes: FastifyPluginCallback<BeaconRoutesOptions> = (app, { endpoint, served }, done) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', endpoint.bodyParser);
  const routes = [
    { url: BEACON_PATH, what: REPORTS, answer: endpoint.report },
    { url: VISIT_PATH, what: 'requests for a visit id', answer: endpoint.visit },
  ];
  for (const { url, what, answer } of routes) {
    app.route({
      method: app.supportedMethods,
      url,
      exposeHeadRoute: false,
      onRequest: async (request, reply) => {
        if (!(await endpoint.precheck(request, reply, what))) return reply;
      },
      handler: (request, reply) => answer(request, reply, served()),
    });
  }
  done();
};
