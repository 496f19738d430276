import { usePortico } from '@portico/shared-config';
import { languageFromSearch } from '@portico/contract/languages';
import { useEffect } from 'react';

/**
 * Back and Forward can cross a language switch: the page follows `?type` of
 * the entry it lands on, as it follows the hash.
 */
export function useLanguageFromUrl(): void {
  const { language, switchLanguage } = usePortico();

  useEffect(() => {
    const follow = () => {
      const wanted = languageFromSearch(window.location.search);
      if (wanted === language) return;
      // Unreachable pack: a reload shows this entry in its language, or the browser's error.
      switchLanguage(wanted).catch(() => window.location.reload());
    };
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [language, switchLanguage]);
}
