import type { FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGES, marketTagOf, pagePath } from '@portico/contract/languages';
import { DATA_OWN_HEADERS } from '@portico/platform/http';

/**
 * `/robots.txt` and `/sitemap.xml` on the host's port, made from the page's
 * public origin per request: both must name absolute URLs, which a static
 * file cannot know (the site is reached as localhost, a LAN address or its
 * public name behind a proxy). host/public/robots.txt is what pure static
 * hosting (nginx:config --no-ssr) serves instead.
 */
export const CRAWLER_PATHS = ['/robots.txt', '/sitemap.xml'] as const;
export type CrawlerPath = (typeof CRAWLER_PATHS)[number];

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (value: string) => value.replace(/[&<>"']/g, (character) => XML_ESCAPES[character]!);

/**
 * The page of each market, each entry naming both markets' pages (tagged
 * with language and country) and the default as alternates (Google's form of
 * hreflang in a sitemap), so the alternates agree with the page's own
 * `<link rel="alternate">`.
 */
export function sitemapXml(origin: string): string {
  const base = new URL(origin).origin;
  const alternates = [
    ...LANGUAGES.map((language) => ({ hreflang: marketTagOf(language), href: `${base}${pagePath(language)}` })),
    { hreflang: 'x-default', href: `${base}${pagePath('en')}` },
  ];
  const urls = LANGUAGES.map((language) =>
    [
      '  <url>',
      `    <loc>${xml(`${base}${pagePath(language)}`)}</loc>`,
      ...alternates.map(({ hreflang, href }) => `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${xml(href)}"/>`),
      '  </url>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Everything may be crawled; the sitemap is named with its absolute URL, as the robots.txt standard asks. */
export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${new URL('/sitemap.xml', origin).href}\n`;
}

const CONTENT_TYPES: Record<CrawlerPath, string> = {
  '/robots.txt': 'text/plain; charset=utf-8',
  '/sitemap.xml': 'application/xml; charset=utf-8',
};

/**
 * Answers one of CRAWLER_PATHS for a visitor on `origin`. The body follows
 * the Host the visitor used, so caches are told to vary on it (`vary`).
 */
export function answerCrawlerFile(
  _request: FastifyRequest,
  reply: FastifyReply,
  pathname: CrawlerPath,
  { origin, vary }: { origin: string; vary: string },
): FastifyReply {
  const body = pathname === '/robots.txt' ? robotsTxt(origin) : sitemapXml(origin);
  return reply
    .code(200)
    .headers({
      ...DATA_OWN_HEADERS,
      'Content-Type': CONTENT_TYPES[pathname],
      // Crawlers fetch these rarely; an hour keeps a CDN from asking each time.
      'Cache-Control': 'public, max-age=3600',
      Vary: vary,
    })
    .send(body);
}
