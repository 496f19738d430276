import type { FastifyPluginCallback } from 'fastify';
import { rawRoute } from '../../guard';
import { SECTION_STYLES_PATH } from '../../ssr/section-styles';
import type { ServerRendering } from '../../ssr/server-rendering';
import { requestTarget } from '../../static-files';

/** The sections' stylesheets the server-rendered page links from its own origin (`/section-styles/…`): only while pages are rendered. */
export const sectionStyles: FastifyPluginCallback<{ rendering: ServerRendering; log: (line: string) => void }> = (app, { rendering, log }, done) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: `${SECTION_STYLES_PATH}*`,
    exposeHeadRoute: false,
    handler: rawRoute((req, res) => rendering.sectionStyles.answer(req, res, requestTarget(req.url)!.pathname), log),
  });
  done();
};
