import { usePortico } from '@portico/shared-config';
import { LANGUAGE_NAMES, LANGUAGES, searchWithLanguage, type Language } from '@portico/contract/languages';
import { useState, type MouseEvent } from 'react';
import { usePageAddress } from './use-page-address';

export type LanguageSwitchProps = Readonly<Record<never, never>>;

/** `address` (`/path?query#hash`) in `language`: the same section, every other parameter kept. */
function hrefFor(address: string, language: Language): string {
  const hashAt = address.includes('#') ? address.indexOf('#') : address.length;
  const searchAt = address.slice(0, hashAt).includes('?') ? address.indexOf('?') : hashAt;
  const search = searchWithLanguage(address.slice(searchAt, hashAt), language);
  return `${address.slice(0, searchAt)}${search}${address.slice(hashAt)}`;
}

const currentAddress = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/**
 * Links to the page in each language, each named in its own language. A
 * plain click switches in place once the pack has arrived, so nothing typed
 * is lost; the links stay real links for a new tab or a copied address.
 */
export function LanguageSwitch(_props: LanguageSwitchProps) {
  const { language, text, switchLanguage } = usePortico();
  const [pending, setPending] = useState<Language | null>(null);
  const address = usePageAddress();

  const choose = async (event: MouseEvent<HTMLAnchorElement>, target: Language) => {
    // A new tab or window is the browser's business.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (target === language) return;
    // Read at click time: the hash may have changed since the last render.
    const href = hrefFor(currentAddress(), target);
    setPending(target);
    try {
      if (await switchLanguage(target)) window.history.pushState(null, '', href);
    } catch {
      // The pack could not be fetched in place; loading the page in that
      // language is the browser's own retry, with its own error page.
      window.location.assign(href);
    } finally {
      setPending(null);
    }
  };

  return (
    <div role="group" aria-label={text.languageSwitch.label} aria-busy={pending !== null} className="language-switch">
      {LANGUAGES.map((option) => (
        <a
          key={option}
          href={hrefFor(address, option)}
          lang={LANGUAGE_NAMES[option].tag}
          hrefLang={LANGUAGE_NAMES[option].tag}
          aria-current={option === language ? 'true' : undefined}
          className="language-switch__option"
          onClick={(event) => void choose(event, option)}
        >
          {LANGUAGE_NAMES[option].name}
        </a>
      ))}
    </div>
  );
}
