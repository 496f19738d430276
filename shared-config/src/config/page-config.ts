import { marketOf, type Language } from '@portico/contract/languages';
import { isRecord } from './parse-sections';

/** Keeps only `key` of an object; anything else (a bad value, named by the server's reading) as it is. */
const onlyKey = (value: unknown, key: string): unknown => (isRecord(value) ? (Object.hasOwn(value, key) ? { [key]: value[key] } : {}) : value);

/**
 * config.json as a page in `language` carries it in its page data: the
 * other market's blocks of `legal` and `byMarket`, and the other language's
 * copyright line, left out. A page is one market's and never shows them
 * (a language switch is a navigation to the other page), and the page must
 * fit in the first round trip's window. The old single-lender `legal`
 * (with its `market`) is kept as written: its reader decides.
 */
export function pageConfigOf(raw: unknown, language: Language): unknown {
  if (!isRecord(raw)) return raw;
  const market = marketOf(language);
  const page: Record<string, unknown> = { ...raw };
  if (isRecord(raw.legal) && !Object.hasOwn(raw.legal, 'market')) page.legal = onlyKey(raw.legal, market);
  if (raw.byMarket !== undefined) page.byMarket = onlyKey(raw.byMarket, market);
  if (raw.copyrightByLanguage !== undefined) page.copyrightByLanguage = onlyKey(raw.copyrightByLanguage, language);
  return page;
}
