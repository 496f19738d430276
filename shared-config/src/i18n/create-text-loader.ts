import type { Language } from '@portico/contract/languages';

/** How a package imports its texts of one language: one dynamic import, one chunk. */
export type TextImports<T> = Readonly<Record<Language, () => Promise<T>>>;

/** The texts of one language, fetched on first use and kept. */
export type TextLoader<T> = (language: Language) => Promise<T>;

/**
 * A loader over one package's texts, one chunk per language, so a visitor
 * downloads only the language they read. It hands out the same promise for
 * a language every time: React's `use()` then reads a settled promise
 * synchronously, on the client and on a server render alike. A failed fetch
 * is forgotten, so asking again really retries.
 */
export function createTextLoader<T>(imports: TextImports<T>): TextLoader<T> {
  const loaded = new Map<Language, Promise<T>>();
  return (language) => {
    let pending = loaded.get(language);
    if (!pending) {
      pending = imports[language]();
      loaded.set(language, pending);
      pending.catch(() => loaded.delete(language));
    }
    return pending;
  };
}
