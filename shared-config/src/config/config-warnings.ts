import { LANGUAGES, MARKETS, marketOf, type Language, type Market } from '@portico/contract/languages';
import type { ConfigProblem, SiteConfig } from './config-schema';
import { MARKET_DETAILS } from './market-details';

/** The language of `market`'s page (a language is one market's page). */
const languageOf = (market: Market): Language => LANGUAGES.find((language) => marketOf(language) === market)!;

const MARKET_PAGE: Record<Market, string> = { IN: 'the India page (?type=1)', ID: 'the Indonesia page (?type=2)' };

/**
 * What a valid config.json still lacks that visitors are owed, or says in a
 * shape that will go: each market without its lender's block, a block
 * without its licence or grievance officer, the Indonesian copyright line,
 * an old `legal`. Unlike a problem it breaks nothing, so it is the
 * operator's to read (the server's log, `check-remotes`, `GET /api/config`),
 * never the visitor's.
 */
export function configWarnings({ config, deprecated = [] }: { config: SiteConfig; deprecated?: readonly ConfigProblem[] }): ConfigProblem[] {
  const warnings: ConfigProblem[] = [...deprecated];
  for (const market of MARKETS) {
    const block = config.legal?.[market];
    if (!block) {
      warnings.push({
        field: `legal.${market}`,
        message: `is missing: ${MARKET_PAGE[market]} shows no lender, licence or complaint path (a regulated lender must publish them)`,
      });
      continue;
    }
    const missing = [!block.licenceNumber && 'licenceNumber', !(block.grievanceOfficer?.name && block.grievanceOfficer.email) && 'grievanceOfficer'].filter(
      (field) => typeof field === 'string',
    );
    if (missing.length > 0)
      warnings.push({ field: `legal.${market}`, message: `has no ${missing.join(' and ')}: ${MARKET_PAGE[market]} shows its lender without them` });
  }
  warnings.push(...fallbacks(config));
  if (config.copyright && !config.copyrightByLanguage?.id && !config.byMarket?.ID?.copyright) {
    warnings.push({
      field: 'copyrightByLanguage.id',
      message: `is missing: the Indonesian page shows the copyright line as written, ${JSON.stringify(config.copyright)}`,
    });
  }
  return warnings;
}

const FIELD_LIST = (fields: readonly string[]) => (fields.length === 1 ? fields[0]! : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)!}`);

/**
 * Once any market has company details of its own (`byMarket`), each market
 * that still shows a top-level value: the operator sees which page shows
 * what was written for the other (a file that never uses `byMarket` shows
 * the top-level values on both pages, as it always did, and is told nothing).
 */
function fallbacks(config: SiteConfig): ConfigProblem[] {
  if (!config.byMarket || Object.keys(config.byMarket).length === 0) return [];
  return MARKETS.flatMap((market) => {
    const own = config.byMarket?.[market];
    const shared = MARKET_DETAILS.filter((field) => own?.[field] === undefined && (field !== 'copyright' || !config.copyrightByLanguage?.[languageOf(market)]));
    return shared.length === 0
      ? []
      : [
          {
            field: `byMarket.${market}`,
            message: `has no ${FIELD_LIST(shared)} of its own: ${MARKET_PAGE[market]} shows the top-level ${shared.length === 1 ? 'value' : 'values'}`,
          },
        ];
  });
}

/**
 * Tells whoever opens the browser's console what config.json has wrong (one
 * error, a line per problem): the technical detail behind what the page
 * left out. The client-rendered page's start-up and the server-rendered
 * page's script (from the server's reading) say it alike.
 */
export function reportConfigToConsole(problems: readonly { field: string; message: string }[]): void {
  if (problems.length > 0)
    console.error(`Portico: config.json has ${problems.length} problem(s):\n${problems.map((p) => `- ${p.field}: ${p.message}`).join('\n')}`);
}
