export const LANGUAGES = ['en', 'id'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The page's URL parameter that picks the language (specification, point 1). */
export const LANGUAGE_PARAM = 'type';

/** `?type=1` is English (India), `?type=2` Indonesian. */
const TYPE_OF: Record<Language, string> = { en: '1', id: '2' };

/**
 * Each language by its own name, for the language switch. These are not in
 * the packs because the switch names every language while only the active
 * pack is loaded. `tag` is the language's BCP 47 tag (`localeOf`).
 */
export const LANGUAGE_NAMES: Record<Language, { name: string; tag: string }> = {
  en: { name: 'English', tag: 'en-IN' },
  id: { name: 'Bahasa Indonesia', tag: 'id' },
};

/**
 * The markets the site lends in. Each language is one market's page:
 * `?type=1` English for India, `?type=2` Indonesian for Indonesia, so the
 * lender, its regulator and its complaint path follow the language.
 */
export const MARKETS = ['IN', 'ID'] as const;
export type Market = (typeof MARKETS)[number];

const MARKET_OF: Record<Language, Market> = { en: 'IN', id: 'ID' };

/** The market whose page `language` is: `en` India, `id` Indonesia. */
export function marketOf(language: Language): Market {
  return MARKET_OF[language];
}

/**
 * The page's language and market as one tag (`en-IN`, `id-ID`): its
 * `hreflang` alternates, so a search engine offers each market its own page.
 */
export function marketTagOf(language: Language): string {
  return `${language}-${MARKET_OF[language]}`;
}

/** The BCP 47 tag of `language`, for `<html lang>` and for Intl formatting. */
export function localeOf(language: Language): string {
  return LANGUAGE_NAMES[language].tag;
}

/**
 * The page's canonical path in `language`: English, the default, is `/`
 * (the same page as `?type=1`), Indonesian `/?type=2`. Search engines and
 * link previews are given these (canonical, hreflang, sitemap.xml).
 */
export function pagePath(language: Language): string {
  return language === 'en' ? '/' : `/?${LANGUAGE_PARAM}=${TYPE_OF[language]}`;
}

/** The language a query string asks for; a missing or unknown `type` is English. */
export function languageFromSearch(search: string): Language {
  const type = new URLSearchParams(search).get(LANGUAGE_PARAM);
  return LANGUAGES.find((language) => TYPE_OF[language] === type) ?? 'en';
}

function isLanguageParam(part: string): boolean {
  const name = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name) === LANGUAGE_PARAM;
  } catch {
    return false;
  }
}

/**
 * The query string for `language`. Every other parameter (a remote override,
 * say) is kept exactly as written, so an encoded URL is not re-encoded.
 */
export function searchWithLanguage(search: string, language: Language): string {
  const parts = search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part !== '');
  const type = `${LANGUAGE_PARAM}=${TYPE_OF[language]}`;
  const at = parts.findIndex(isLanguageParam);
  const kept = parts.filter((part) => !isLanguageParam(part));
  kept.splice(at === -1 ? kept.length : at, 0, type);
  return `?${kept.join('&')}`;
}
