import type { FastifyPluginCallback } from 'fastify';
import { rawRoute } from '../../guard';
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
    handler: rawRoute(async (request, res) => {
      const req = request.raw;
      const { pathname, search } = requestTarget(req.url)!;
      if (!onDemand.handles(pathname)) {
        if (rendering) return rendering.sectionStyles.answer(req, res, pathname);
        return onDemand.answer(req, res, pathname, search, undefined);
      }
      const { site: served } = await site.siteOf(request);
      return onDemand.answer(req, res, pathname, search, served?.config);
    }),
  });
  done();
};
