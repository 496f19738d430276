import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { VISIT_TIMING } from '@portico/contract/beacon';
import { sendAnswer } from '@portico/platform/http';
import type { ServerRendering } from '../../ssr/server-rendering';
import { requestTarget, type Handler } from '../../static-files';
import type { HostSite } from '../host-site';
import { notFoundAnswer } from './app-files';

export interface PagesOptions {
  site: HostSite;
  /** The page rendered on the server; none: the built index.html (PORTICO_SSR=0). */
  rendering: ServerRendering | undefined;
  /** The client-rendered index.html, when the page is not rendered (builtPage: from memory). */
  files: Handler;
}

/**
 * The page, `/` and `/index.html`: server-rendered (the pipeline of
 * server/src/ssr), or the built index.html, sent through Fastify (the root
 * plugin's onSend adds the headers every answer carries). Each answer
 * counts for the releases its visitor is served (the beacon's visit ids),
 * and carries its visit id where the page can read it (a `Server-Timing`
 * entry, VISIT_TIMING).
 */
export const pages: FastifyPluginCallback<PagesOptions> = (app, { site, rendering, files }, done) => {
  const pageHeaders = (request: FastifyRequest, search: string) => site.pageHeaders(request, search);
  const builtPage = (request: FastifyRequest) => files(request, () => notFoundAnswer(request, pageHeaders));
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const counted = site.countPage(request, requestTarget(request.raw.url)!.search);
    // Per answer, beside the page's cached headers: the page reads it from its navigation entry (a 304's replaces the cached one's).
    const visit = counted && (await counted);
    if (visit !== undefined) reply.header('Server-Timing', `${VISIT_TIMING};desc="${visit}"`);
    return sendAnswer(reply, await (rendering ? rendering.handle(request, () => builtPage(request)) : builtPage(request)));
  };
  for (const url of ['/', '/index.html']) app.route({ method: ['GET', 'HEAD'], url, exposeHeadRoute: false, handler: page });
  done();
};
