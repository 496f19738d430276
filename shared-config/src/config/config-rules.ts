/**
 * What the page needs of config.json's rules once it is read, without the
 * schema: the browser is handed a config the server already validated
 * (issue 50), so the singleton every section shares carries no zod. The
 * schema (config-schema.ts) takes its bounds from here.
 */
import { BUILT_IN_GRANTS, type SectionGrant } from '@portico/contract/sections';
import { isBuiltInSection } from '@portico/contract/section-entries';
import { MARKETS, marketOf, type Language, type Market } from '@portico/contract/languages';
import { MARKET_DETAILS } from './market-details';
import type { ConfigProblem, RuntimeConfig, SiteConfig } from './config-schema';

export { CONTACT_BOUNDS, PREVIEW_REFUSALS, REMOTE_LOADING_BOUNDS } from './config-bounds';

/** The markets `legal` has a block for; their home is @portico/contract (a language is one market's page). */
export { MARKETS, type Market };

/** config.json's top-level fields: `satisfies` holds the list to the schema's, both ways. */
const CONFIG_FIELDS = new Set(
  Object.keys({
    comName: true,
    email: true,
    address: true,
    copyright: true,
    copyrightByLanguage: true,
    byMarket: true,
    remotes: true,
    allowedRemoteOrigins: true,
    remoteLoading: true,
    legal: true,
    theme: true,
    remoteIntegrity: true,
    sections: true,
    contact: true,
    preview: true,
    previewRefused: true,
    health: true,
  } satisfies Record<keyof RuntimeConfig, true>),
);

/**
 * Whether a problem is about the whole document (missing, unreachable, not
 * JSON, not an object: its "field" is the URL or `(document)`), not about a
 * field in it. Only such a fault is told on the page: the visitor then sees
 * a shell with nothing configured, and the notice says why.
 */
export function isDocumentProblem(problem: ConfigProblem): boolean {
  return !CONFIG_FIELDS.has(problem.field.split('.', 1)[0]!);
}

/**
 * Whether `section` may run script in the visitor's browser: config.json's
 * grant (as the server serves it, the releases store's over the file's), or
 * the section's built-in one.
 */
export function sectionGrant(config: Pick<SiteConfig, 'sections'>, section: string): SectionGrant {
  const builtIn = isBuiltInSection(section) && BUILT_IN_GRANTS[section as keyof typeof BUILT_IN_GRANTS].interactive;
  return { interactive: config.sections?.[section]?.interactive ?? builtIn };
}

/** The footer's copyright line in `language`: its market's own, its language's, or the line as written. */
export function copyrightIn(config: Pick<SiteConfig, 'copyright' | 'copyrightByLanguage' | 'byMarket'>, language: Language): string | undefined {
  return config.byMarket?.[marketOf(language)]?.copyright ?? config.copyrightByLanguage?.[language] ?? config.copyright;
}

/**
 * The config as the page in `language` shows it: its market's own company
 * details over the top-level ones (`byMarket`). Applied where the page's
 * context is made, so the title, the nav, the footer and every section read
 * the market's values alike. Applying it twice changes nothing.
 */
export function inMarket<Config extends Pick<SiteConfig, 'comName' | 'email' | 'address' | 'copyright' | 'copyrightByLanguage' | 'byMarket'>>(
  config: Config,
  language: Language,
): Config {
  const own = config.byMarket?.[marketOf(language)];
  if (!own) return config;
  return {
    ...config,
    ...Object.fromEntries(MARKET_DETAILS.filter((field) => own[field] !== undefined).map((field) => [field, own[field]])),
    copyright: copyrightIn(config, language),
  };
}
