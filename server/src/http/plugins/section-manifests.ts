import type { FastifyPluginCallback } from 'fastify';
import { SECTION_MANIFEST_PATH } from '@portico/contract/override';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { dataHeaders, JSON_TYPE } from '@portico/platform/http';
import type { ManifestRelay } from '../../manifest-relay';
import type { HostSite } from '../host-site';

/**
 * `GET /section-manifest/<section>?url=…`: a section's manifest, on the
 * page's origin (manifest-relay.ts). The page's `connect-src` names no other
 * origin, so this is how its loader reads a manifest the page did not inline.
 */
export const sectionManifests: FastifyPluginCallback<{ site: HostSite; relay: ManifestRelay }> = (app, { site, relay }, done) => {
  app.get<{ Params: { section: string }; Querystring: { url?: string } }>(`${SECTION_MANIFEST_PATH}:section`, async (request, reply) => {
    const headers = { ...dataHeaders(), 'Cache-Control': 'no-store' };
    const { section } = request.params;
    const { url } = request.query;
    const { site: served } = await site.siteOf(request.raw);
    if (!(SECTION_IDS as readonly string[]).includes(section) || typeof url !== 'string' || !served) {
      return reply
        .code(404)
        .headers({ ...headers, 'Content-Type': 'text/plain; charset=utf-8' })
        .send('no such section manifest\n');
    }
    const answer = await relay.get(served.config, section as SectionId, url);
    if ('problem' in answer) {
      return reply
        .code(answer.status)
        .headers({ ...headers, 'Content-Type': 'text/plain; charset=utf-8' })
        .send(`${url} ${answer.problem}\n`);
    }
    return reply
      .code(200)
      .headers({ ...headers, 'Content-Type': JSON_TYPE })
      .send(answer.bytes);
  });
  done();
};
