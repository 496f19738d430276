import type { FastifyPluginCallback } from 'fastify';
import { VISIT_TIMING } from '@portico/contract/beacon';
import { rawRoute } from '../../guard';
import type { ServerRendering } from '../../ssr/server-rendering';
import { requestTarget, type Handler } from '../../static-files';
import type { HostSite } from '../host-site';
import { answerNotFound } from './app-files';

export interface PagesOptions {
  site: HostSite;
  /** The page rendered on the server; none: the built index.html (PORTICO_SSR=0). */
  rendering: ServerRendering | undefined;
  /** The client-rendered index.html, when the page is not rendered (builtPage: from memory). */
  files: Handler;
}

/**
 * The page, `/` and `/index.html`: server-rendered (the pipeline of
 * server/src/ssr keeps its raw `handle(req, res, fallback)`), or the built
 * index.html. Each answer counts for the releases its visitor is served
 * (the beacon's visit ids), and carries its visit id where the page can
 * read it (a `Server-Timing` entry, VISIT_TIMING).
 */
export const pages: FastifyPluginCallback<PagesOptions> = (app, { site, rendering, files }, done) => {
  const pageHeaders = (request: Parameters<Handler>[0], search: string) => site.pageHeaders(request, search);
  const page = rawRoute(async (request, res) => {
    const counted = site.countPage(request, requestTarget(request.raw.url)!.search);
    // Per answer, beside the page's cached headers: the page reads it from its navigation entry (a 304's replaces the cached one's).
    const visit = counted && (await counted);
    if (visit !== undefined) res.setHeader('Server-Timing', `${VISIT_TIMING};desc="${visit}"`);
    const builtPage = () => files(request, res, () => answerNotFound(request, res, pageHeaders));
    await (rendering ? rendering.handle(request, res, builtPage) : builtPage());
  });
  for (const url of ['/', '/index.html']) app.route({ method: ['GET', 'HEAD'], url, exposeHeadRoute: false, handler: page });
  done();
};
