/**
 * What of a page's address changes the page the server renders. Pure: the
 * front server applies it to each request's query before rendering.
 */
import { searchWithLanguage, type Language } from './languages';
import { overrideParam, type RemoteOverride } from './override';
import { PREVIEW_PARAM } from './preview';

/**
 * The page's own query string: its language (`?type=2`; English, the
 * default, writes none), each override the rule accepted
 * (`remote.<section>=<URL>`, in section order) and a preview's token, in one
 * spelling. Anything else in the address (a campaign's tag, a number added to
 * get past a cache, an override the rule refused) changes nothing the server
 * renders, so it is left out: addresses that differ only there are one page,
 * rendered and kept once. The visitor's address keeps its whole query.
 */
export function pageQuery(language: Language, overrides: readonly RemoteOverride[], previewToken: string | undefined): string {
  const params = new URLSearchParams(language === 'en' ? '' : searchWithLanguage('', language));
  for (const override of [...overrides].sort((a, b) => (a.section < b.section ? -1 : 1))) params.append(overrideParam(override.section), override.url);
  if (previewToken !== undefined) params.append(PREVIEW_PARAM, previewToken);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
