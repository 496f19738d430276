import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '@portico/shared-config/config';
import { themeStylesheet } from '@portico/config-server/theme-stylesheet';
import { DATA_OWN_HEADERS, sendPlain } from '@portico/platform/http';
import { matchesEtag } from './plain-answer';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE } from './static-files';

/**
 * `/theme.css` on the host's port: the theme of the config.json this request
 * would get (the default config follows the Host), as the server-rendered
 * page links it (`?v=<version>`, render-blocking, so the first paint has the
 * operator's colours). The address with the current version is immutable;
 * any other (no `v`, or an older page's) gets today's colours, revalidated.
 * No theme, or a config.json the server cannot serve: 404, since then no
 * page links it.
 */
export function answerThemeStylesheet(
  request: FastifyRequest,
  reply: FastifyReply,
  { config, search, vary }: { config: SiteConfig | undefined; search: string; vary?: string },
): FastifyReply {
  const sheet = config ? themeStylesheet(config.theme) : undefined;
  const varyHeader: Record<string, string> = vary ? { Vary: vary } : {};
  if (!sheet) return sendPlain(reply, 404, 'No theme in config.json', varyHeader);

  const etag = `"${sheet.version}"`;
  const current = new URLSearchParams(search).get('v') === sheet.version;
  const notModified = matchesEtag(request.headers['if-none-match'], etag);
  reply.code(notModified ? 304 : 200).headers({
    ...DATA_OWN_HEADERS,
    ...varyHeader,
    'Content-Type': 'text/css; charset=utf-8',
    'Cache-Control': current ? CACHE_IMMUTABLE : CACHE_REVALIDATE,
    ETag: etag,
  });
  return notModified ? reply.send() : reply.send(sheet.css);
}
