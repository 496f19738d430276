import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { BEACON_PATH, VISIT_PATH } from '@portico/contract/beacon';
import { DATA_OWN_HEADERS, HttpRefusal, JSON_TYPE, NotJson, postGate } from '@portico/platform/http';
import type { ServedState } from '@portico/releases';
import { acceptedBeaconType, REPORTS, type BeaconAnswer, type BeaconEndpoint } from '../../beacon/beacon-endpoint';

export interface BeaconRoutesOptions {
  endpoint: BeaconEndpoint;
  /** What this server serves now: the canaries a report or an id may count for. */
  served: () => ServedState | undefined;
}

/** Never cached: a report's answer is this request's. */
const NOT_KEPT = { ...DATA_OWN_HEADERS, 'Cache-Control': 'no-store' };

/** The endpoint's answer: `{ error }` as a refusal (the root plugin's error handler words it), else no body or the visit id. */
function send(reply: FastifyReply, answer: BeaconAnswer): FastifyReply {
  if (answer.error !== undefined) throw new HttpRefusal(answer.status, answer.error, {}, answer.headers);
  reply.code(answer.status).headers(NOT_KEPT);
  return answer.body === undefined ? reply.send() : reply.header('Content-Type', JSON_TYPE).send(JSON.stringify(answer.body));
}

/**
 * `POST /api/beacon` (the page's visit reports) and `POST /api/visit` (its
 * visit ids), on the host's port: the method, the origin, the type and the
 * store checked before a byte of the body is read (postGate; any other
 * method: 405 with `Allow: POST`), the body read by the root plugin's
 * parser within the endpoint's limits (4 KB, nothing past it read) and
 * handed over parsed; the endpoint is given plain values.
 */
export const beaconRoutes: FastifyPluginCallback<BeaconRoutesOptions> = (app, { endpoint, served }, done) => {
  const routes = [
    { url: BEACON_PATH, what: REPORTS, answer: (json: unknown, address: string) => endpoint.report(json, { address }, served()) },
    { url: VISIT_PATH, what: 'requests for a visit id', answer: (json: unknown) => endpoint.visit(json, served()) },
  ];
  for (const { url, what, answer } of routes) {
    const gate = postGate({
      accepts: acceptedBeaconType,
      open: () => endpoint.open(),
      words: {
        method: 'only POST is accepted here',
        origin: `${what} are accepted from this site's own pages only`,
        type: `${what} are text/plain or application/json, in UTF-8`,
        closed: `${what} cannot be taken just now`,
      },
    });
    const reports = what === REPORTS;
    app.route({
      method: app.supportedMethods,
      url,
      exposeHeadRoute: false,
      config: { body: { as: 'json', limits: endpoint.bodyLimits } },
      onRequest: reports
        ? async (request) => {
            try {
              await gate(request);
            } catch (error) {
              endpoint.refused('refused-early');
              throw error;
            }
          }
        : gate,
      // A report that is no JSON is a malformed one (REPORT_OUTCOMES).
      onError: (_request, _reply, error, next) => {
        if (reports && error instanceof NotJson) endpoint.refused('malformed');
        next();
      },
      handler: (request, reply) => send(reply, answer(request.body, request.visitor.address ?? 'unknown')),
    });
  }
  done();
};
