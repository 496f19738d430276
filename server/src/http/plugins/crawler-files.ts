import type { FastifyPluginCallback } from 'fastify';
import { answerCrawlerFile, CRAWLER_PATHS } from '../../crawler-files';

/**
 * `/robots.txt` and `/sitemap.xml`, made from the origin the visitor used
 * (behind a trusted proxy, its forwarded host and scheme).
 */
export const crawlerFiles: FastifyPluginCallback<{ trustProxy: boolean }> = (app, { trustProxy }, done) => {
  for (const pathname of CRAWLER_PATHS) {
    app.get(pathname, (request, reply) => {
      // The app's checks passed the host, so the visitor has an origin.
      const { origin } = request.visitor;
      return answerCrawlerFile(request, reply, pathname, { origin: origin!, vary: trustProxy ? 'Host, X-Forwarded-Host, X-Forwarded-Proto' : 'Host' });
    });
  }
  done();
};
