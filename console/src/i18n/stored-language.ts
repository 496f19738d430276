import { LANGUAGES, type Language } from '@portico/contract/languages';

/** Where the console keeps the reader's language: this browser, the console's origin only (no secret in it). */
const KEY = 'portico-console-language';

/** The language chosen before on this browser, English otherwise (Indonesian fell back to English on each reload, issue 49). */
export function storedLanguage(): Language {
  try {
    const kept = localStorage.getItem(KEY);
    return LANGUAGES.find((language) => language === kept) ?? 'en';
  } catch {
    // Storage refused (a privacy setting): the choice lasts while the page is open.
    return 'en';
  }
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(KEY, language);
  } catch {
    // As above: the switch still works for this page.
  }
}
