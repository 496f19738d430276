import { escapeHtml, scriptSafeJson } from '@portico/contract/html';
import { inMarket, PAGE_COLORS, type SiteConfig, type TextPack } from '@portico/shared-config';
import { LANGUAGE_NAMES, LANGUAGES, marketOf, marketTagOf, pagePath, type Language, type Market } from '@portico/contract/languages';

/**
 * The `<head>` tags that let search engines and link previews read the page:
 * title, description, canonical URL and language alternates, Open Graph and
 * schema.org data. Pure, for the render worker (built from the host) to put
 * into the server-rendered page in place of index.html's static block
 * (`withPageHead`). Every value is escaped here; the caller adds nothing.
 */
export interface PageHeadInput {
  /** The parsed config.json (`parseConfig`), bad fields already dropped. */
  config: SiteConfig;
  language: Language;
  /** The host's texts in `language` (its `TextPack`). */
  text: TextPack;
  /** The page's public origin, as visitors reach it: `https://www.portico.example`. */
  origin: string;
  /**
   * The operator's theme as a stylesheet (`/theme.css?v=<hash>`, from
   * `themeStylesheet`), linked so the first paint has its colours; absent
   * when config.json has no theme.
   */
  themeStylesheetHref?: string;
}

/** The social preview image in host/public, its size as Open Graph wants it said. */
const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630, type: 'image/png' } as const;

/** Open Graph names locales with an underscore and the country: the page's market. */
const ogLocale = (language: Language) => marketTagOf(language).replace('-', '_');

/** schema.org's names of the markets' countries. */
const MARKET_COUNTRY: Record<Market, string> = { IN: 'India', ID: 'Indonesia' };

/** The origin alone, checked: a path, a query or a non-http(s) scheme would make every URL below wrong. */
function pageOrigin(origin: string): string {
  const url = new URL(origin);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.replace(/\/$/, '')) {
    throw new Error(`pageHead needs the page's origin (scheme://host[:port]), got ${JSON.stringify(origin)}`);
  }
  return url.origin;
}

/** The page's URL in each language, from its public origin. */
function pageUrls(origin: string): Record<Language, string> {
  const base = pageOrigin(origin);
  return { en: `${base}${pagePath('en')}`, id: `${base}${pagePath('id')}` };
}

/**
 * schema.org's description of the lender of the page's market, from what
 * config.json says of it (its block of `legal`); absent fields are left out,
 * and the other market's lender is never named.
 */
function structuredData({ config: written, language, text, origin }: PageHeadInput): Record<string, unknown> {
  const config = inMarket(written, language);
  const urls = pageUrls(origin);
  const name = config.comName ?? text.siteName;
  const market = marketOf(language);
  const legal = config.legal?.[market];
  const identifiers = [
    legal?.registrationNumber && { '@type': 'PropertyValue', propertyID: 'registrationNumber', value: legal.registrationNumber },
    legal?.licenceNumber && { '@type': 'PropertyValue', propertyID: 'licenceNumber', value: legal.licenceNumber },
  ].filter(Boolean);
  const officer = legal?.grievanceOfficer;
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'FinancialService',
    name,
    description: text.metaDescription,
    url: urls[language],
    image: `${pageOrigin(origin)}${OG_IMAGE.path}`,
    inLanguage: LANGUAGE_NAMES[language].tag,
    email: config.email,
    address: config.address,
    legalName: legal?.companyName,
    telephone: legal?.phone,
    sameAs: legal?.website,
    areaServed: { '@type': 'Country', name: MARKET_COUNTRY[market] },
    identifier: identifiers.length > 0 ? identifiers : undefined,
    contactPoint: officer?.name && {
      '@type': 'ContactPoint',
      contactType: 'grievance officer',
      name: officer.name,
      email: officer.email,
      telephone: officer.phone,
    },
  };
  return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
}

const meta = (attribute: 'name' | 'property', key: string, content: string) => `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
const link = (attributes: Record<string, string>) =>
  `<link ${Object.entries(attributes)
    .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
    .join(' ')} />`;

/**
 * The head tags of the page in `language`, one per line: they replace
 * index.html's static block, which holds the same kinds of tag without the
 * parts only the server knows (the origin, the company, the language).
 */
export function pageHead(input: PageHeadInput): string {
  const { language, text } = input;
  const config = inMarket(input.config, language);
  const urls = pageUrls(input.origin);
  const title = config.comName ?? text.siteName;
  const image = `${pageOrigin(input.origin)}${OG_IMAGE.path}`;
  const other = LANGUAGES.find((option) => option !== language)!;
  return [
    `<title>${escapeHtml(title)}</title>`,
    // The phone's toolbar in the brand colour from the first paint; applyTheme keeps it so after hydration.
    meta('name', 'theme-color', config.theme?.primary ?? PAGE_COLORS.primary),
    // Render-blocking on purpose: after the build's stylesheets (these tags close the head), before the first paint.
    ...(input.themeStylesheetHref ? [link({ rel: 'stylesheet', href: input.themeStylesheetHref })] : []),
    meta('name', 'description', text.metaDescription),
    link({ rel: 'canonical', href: urls[language] }),
    // hreflang points at each market's page by its canonical URL (`/` is `?type=1`), tagged with
    // the language and the market's country (en-IN, id-ID), as search engines ask.
    ...LANGUAGES.map((option) => link({ rel: 'alternate', hreflang: marketTagOf(option), href: urls[option] })),
    link({ rel: 'alternate', hreflang: 'x-default', href: urls.en }),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', title),
    meta('property', 'og:title', title),
    meta('property', 'og:description', text.metaDescription),
    meta('property', 'og:url', urls[language]),
    meta('property', 'og:locale', ogLocale(language)),
    meta('property', 'og:locale:alternate', ogLocale(other)),
    meta('property', 'og:image', image),
    meta('property', 'og:image:type', OG_IMAGE.type),
    meta('property', 'og:image:width', String(OG_IMAGE.width)),
    meta('property', 'og:image:height', String(OG_IMAGE.height)),
    meta('property', 'og:image:alt', title),
    meta('name', 'twitter:card', 'summary_large_image'),
    `<script type="application/ld+json">${scriptSafeJson(structuredData(input))}</script>`,
  ].join('\n    ');
}

/**
 * The tags pageHead writes, as index.html may hold them (minified: attribute
 * values unquoted). Our own build's HTML, so a pattern per kind suffices.
 */
const HEAD_TAGS = [
  /<title\b[^>]*>[\s\S]*?<\/title>/gi,
  /<meta\b[^>]*\b(?:name|property)=["']?(?:description|theme-color|og:[\w:]+|twitter:[\w:]+)["'\s>][^>]*>/gi,
  /<link\b[^>]*\brel=["']?(?:canonical|alternate)["'\s>][^>]*>/gi,
  /<script\b[^>]*\btype=["']?application\/ld\+json["'\s>][^>]*>[\s\S]*?<\/script>/gi,
];

/**
 * index.html with its static head tags (title, description, Open Graph…)
 * replaced by `tags` (`pageHead`), put at the end of its `<head>`, so the
 * page has one of each.
 */
export function withPageHead(indexHtml: string, tags: string): string {
  const end = indexHtml.search(/<\/head>/i);
  if (end === -1) throw new Error('index.html has no </head>');
  const head = HEAD_TAGS.reduce((html, pattern) => html.replace(pattern, ''), indexHtml.slice(0, end));
  return `${head}${tags}${indexHtml.slice(end)}`;
}
