import type { FastifyPluginCallback } from 'fastify';
import { THEME_STYLESHEET_PATH } from '@portico/config-server/theme-stylesheet';
import { dataHeaders, JSON_TYPE } from '@portico/platform/http';
import { answerThemeStylesheet } from '../../theme-stylesheet';
import { requestTarget } from '../../static-files';
import type { HostSite } from '../host-site';

export interface ConfigRoutesOptions {
  site: HostSite;
  log: (line: string) => void;
}

/**
 * What is made of the operator's config.json for each request:
 * `/config.json` (with the releases of the visitor's cohort or preview in
 * it) and `/theme.css` (its theme, as the page links it).
 */
export const configRoutes: FastifyPluginCallback<ConfigRoutesOptions> = (app, { site, log }, done) => {
  app.get('/config.json', async (request, reply) => {
    const { answer } = await site.siteOf(request.raw);
    if (answer.fault) log(`config.json: ${answer.fault}`);
    const vary = site.varyCookie(site.varyByHost);
    return reply
      .code(answer.status)
      .headers({ ...dataHeaders(), ...(vary ? { Vary: vary } : {}), 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache' })
      .send(answer.body);
  });
  app.get(THEME_STYLESHEET_PATH, async (request, reply) => {
    const { site: served } = await site.siteOf(request.raw);
    return answerThemeStylesheet(request, reply, { config: served?.config, search: requestTarget(request.raw.url)!.search, vary: site.varyByHost });
  });
  done();
};
