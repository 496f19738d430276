import type { FastifyPluginCallback } from 'fastify';
import { sendAnswer } from '@portico/platform/http';
import { SECTION_STYLES_PATH } from '../../ssr/section-styles';
import type { OnDemandStyles } from '../../ssr/scoped-on-demand';
import type { ServerRendering } from '../../ssr/server-rendering';
import { requestTarget } from '../../static-files';
import type { HostSite } from '../host-site';

export interface SectionStylesOptions {
  /** The copies prepared for server-rendered pages, while pages are rendered. */
  rendering: ServerRendering | undefined;
  /** The copies scoped when a page asks (a section rendered in the browser, a stylesheet not prepared), on every page. */
  onDemand: OnDemandStyles;
  site: HostSite;
}

/** The sections' stylesheets, scoped to their slots, that the page links from its own origin (`/section-styles/…`). */
export const sectionStyles: FastifyPluginCallback<SectionStylesOptions> = (app, { rendering, onDemand, site }, done) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: `${SECTION_STYLES_PATH}*`,
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const req = request.raw;
      const { pathname, search } = requestTarget(req.url)!;
      if (!onDemand.handles(pathname)) {
        return sendAnswer(reply, rendering ? rendering.sectionStyles.answer(req, pathname) : await onDemand.answer(req, pathname, search, undefined));
      }
      const { site: served } = await site.siteOf(request);
      return sendAnswer(reply, await onDemand.answer(req, pathname, search, served?.config));
    },
  });
  done();
};
