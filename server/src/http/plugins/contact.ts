import type { ServerResponse } from 'node:http';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { CONTACT_PATH } from '@portico/contract/contact-wire';
import { releasesFor } from '../../served-releases';
import type { HostSite } from '../host-site';
import type { ServingState } from '../serving-state';

export interface ContactRoutesOptions {
  /** The routes under `/api/` on the host's port: in `npm run serve`, the contact messages' (@portico/messages' apiRoutes). */
  api: FastifyPluginCallback;
  site: HostSite;
  state: ServingState;
}

/**
 * A 5xx answer of /api/contact while a canary of Contact runs is a failure
 * of the release the visitor's cohort got (the cohort cookie is on the
 * POST): told to the store for the judge, who trusts what the server saw.
 */
function watchContactAnswer(request: FastifyRequest, res: ServerResponse, { site, state }: Pick<ContactRoutesOptions, 'site' | 'state'>): void {
  const served = site.served();
  if (!state.signal || !served.canaries.contact || request.method !== 'POST') return;
  const releaseId = releasesFor(served, site.cohortOf(request).bucket).contact?.id;
  if (releaseId === undefined) return;
  res.once('finish', () => {
    if (res.statusCode < 500) return;
    state.signal!({ section: 'contact', releaseId, kind: 'contact-5xx', detail: `/api/contact answered ${res.statusCode}` }).catch((error: unknown) =>
      state.log.error(`releases: a 5xx of /api/contact could not be counted for ${releaseId}: ${(error as Error).message}`),
    );
  });
}

/**
 * `POST /api/contact` and the rest of `/api/` on the host's port (the
 * contact messages' routes in `npm run serve`), each 5xx of
 * `/api/contact` counted for a canary of Contact.
 */
export const contactRoutes: FastifyPluginCallback<ContactRoutesOptions> = (app, options, done) => {
  app.addHook('onRequest', (request, reply, next) => {
    if (request.url.split('?')[0] === CONTACT_PATH) watchContactAnswer(request, reply.raw, options);
    next();
  });
  app.register(options.api);
  done();
};
