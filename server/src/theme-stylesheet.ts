import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SiteConfig } from '@portico/shared-config/config';
import { THEME_STYLESHEET_PATH, themeStylesheet } from '@portico/config-server/theme-stylesheet';
import { answerPlain, clearFileHeaders, matchesEtag } from './plain-answer';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE } from './static-files';
import { dataHeaders } from './security-headers';

export { THEME_STYLESHEET_PATH };

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
  req: IncomingMessage,
  res: ServerResponse,
  { config, search, vary }: { config: SiteConfig | undefined; search: string; vary?: string },
): void {
  const sheet = config ? themeStylesheet(config.theme) : undefined;
  const varyHeader: Record<string, string> = vary ? { Vary: vary } : {};
  if (!sheet) return answerPlain(req, res, 404, 'No theme in config.json', varyHeader);

  const etag = `"${sheet.version}"`;
  const current = new URLSearchParams(search).get('v') === sheet.version;
  const notModified = matchesEtag(req.headers['if-none-match'], etag);
  clearFileHeaders(res);
  res.writeHead(notModified ? 304 : 200, {
    ...dataHeaders(),
    ...varyHeader,
    'Content-Type': 'text/css; charset=utf-8',
    'Cache-Control': current ? CACHE_IMMUTABLE : CACHE_REVALIDATE,
    ETag: etag,
    ...(notModified ? {} : { 'Content-Length': String(Buffer.byteLength(sheet.css)) }),
  });
  res.end(req.method === 'HEAD' || notModified ? undefined : sheet.css);
}

export function isThemeStylesheetPath(pathname: string | undefined): boolean {
  return pathname === THEME_STYLESHEET_PATH;
}
