import type { FastifyPluginCallback } from 'fastify';
import { THEME_STYLESHEET_PATH } from '@portico/config-server/theme-stylesheet';
import { DATA_OWN_HEADERS, JSON_TYPE } from '@portico/platform/http';
import { matchesEtag } from '../../plain-answer';
import { answerThemeStylesheet } from '../../theme-stylesheet';
import { requestTarget } from '../../static-files';
import type { SiteContext } from '../../site-context';
import type { HostSite } from '../host-site';

export interface ConfigRoutesOptions {
  site: HostSite;
}

/**
 * What is made of the operator's config.json (once per version of it, HostSite):
 * `/config.json` (with the releases of the visitor's cohort or preview in
 * it) and `/theme.css` (its theme, as the page links it).
 */
export const configRoutes: FastifyPluginCallback<ConfigRoutesOptions> = (app, { site }, done) => {
  // `/config.json`'s headers per site context (its ETag) and Vary: the same object for every request of one version, no key made per request.
  // A context goes with its version of config.json (HostSite keeps them), and its headers with it.
  const made = new WeakMap<SiteContext, Map<string | undefined, Record<string, string>>>();
  const headersOf = (context: SiteContext, vary: string | undefined) => {
    let byVary = made.get(context);
    if (!byVary) made.set(context, (byVary = new Map()));
    let headers = byVary.get(vary);
    if (!headers) {
      headers = {
        ...DATA_OWN_HEADERS,
        ...(vary ? { Vary: vary } : {}),
        'Content-Type': JSON_TYPE,
        'Cache-Control': 'no-cache',
        ...(context.etag ? { ETag: context.etag } : {}),
      };
      byVary.set(vary, headers);
    }
    return headers;
  };
  app.get('/config.json', async (request, reply) => {
    const context = await site.siteOf(request);
    const { answer, etag } = context;
    if (answer.fault) request.log.error(`config.json: ${answer.fault}`);
    const vary = site.varyCookie(site.varyByHost);
    // Revalidated at every use (no-cache): unchanged, it is answered 304, with nothing sent again.
    const notModified = etag !== undefined && matchesEtag(request.headers['if-none-match'], etag);
    return reply
      .code(notModified ? 304 : answer.status)
      .headers(headersOf(context, vary))
      .send(notModified ? undefined : answer.body);
  });
  app.get(THEME_STYLESHEET_PATH, async (request, reply) => {
    const { site: served } = await site.siteOf(request);
    return answerThemeStylesheet(request, reply, { config: served?.config, search: requestTarget(request.raw.url)!.search, vary: site.varyByHost });
  });
  done();
};
