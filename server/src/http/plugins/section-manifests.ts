import type { FastifyPluginCallback } from 'fastify';
import { RELAY_FAULT_HEADER, SECTION_MANIFEST_PATH } from '@portico/contract/manifest-relay';
import { DATA_OWN_HEADERS, JSON_TYPE } from '@portico/platform/http';
import type { ManifestRelay } from '../../manifest-relay';
import type { HostSite } from '../host-site';

const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * `GET /section-manifest/<section>?url=…`: a section's manifest, on the
 * page's origin (manifest-relay.ts). The page's `connect-src` names no other
 * origin, so this is how its loader reads a manifest the page did not inline.
 * GET only (no HEAD: it would fetch too); never cached, so a retry is the
 * origin's answer again.
 */
export const sectionManifests: FastifyPluginCallback<{ site: HostSite; relay: ManifestRelay }> = (app, { site, relay }, done) => {
  app.route<{ Params: { section: string }; Querystring: { url?: string | string[] } }>({
    method: 'GET',
    url: `${SECTION_MANIFEST_PATH}:section`,
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const headers = { ...DATA_OWN_HEADERS, 'Cache-Control': 'no-store' };
      const { section } = request.params;
      const { url } = request.query;
      if (typeof url !== 'string') {
        return reply
          .code(400)
          .headers({ ...headers, 'Content-Type': TEXT_TYPE, [RELAY_FAULT_HEADER]: 'refused' })
          .send('one url parameter, the manifest URL, is needed\n');
      }
      const { site: served } = await site.siteOf(request);
      // The page's fetch given up (its deadline, a Try again, the tab closed): the origin is not waited for either.
      const gone = new AbortController();
      reply.raw.on('close', () => gone.abort());
      const answer = served
        ? await relay.get(served.config, section, url, gone.signal)
        : ({ status: 503, fault: 'unreachable', problem: 'the site has no configuration to read it from' } as const);
      if ('fault' in answer) {
        return reply
          .code(answer.status)
          .headers({ ...headers, 'Content-Type': TEXT_TYPE, [RELAY_FAULT_HEADER]: answer.fault })
          .send(`${url} ${answer.problem}\n`);
      }
      return reply
        .code(answer.status)
        .headers({ ...headers, 'Content-Type': JSON_TYPE })
        .send(answer.bytes);
    },
  });
  done();
};
