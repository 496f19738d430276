import { usePortico } from '@portico/shared-config';
import { LANGUAGE_NAMES, LANGUAGES, marketTagOf, searchWithLanguage, type Language } from '@portico/contract/languages';
import { usePageAddress } from './use-page-address';

/** `address` (`/path?query#hash`) in `language`: the same section, every other parameter kept. */
function hrefFor(address: string, language: Language): string {
  const hashAt = address.includes('#') ? address.indexOf('#') : address.length;
  const searchAt = address.slice(0, hashAt).includes('?') ? address.indexOf('?') : hashAt;
  const search = searchWithLanguage(address.slice(searchAt, hashAt), language);
  return `${address.slice(0, searchAt)}${search}${address.slice(hashAt)}`;
}

/**
 * Links to the page in each language, each named in its own language. A
 * switch is a navigation: the server renders the page in the other
 * language, static sections included (they have no code in the browser to
 * re-render with). The page script keeps the section shown in the links'
 * hash and what was typed across the switch.
 */
export function LanguageSwitch() {
  const { language, text } = usePortico();
  const address = usePageAddress();
  return (
    <div role="group" aria-label={text.languageSwitch.label} className="language-switch">
      {LANGUAGES.map((option) => (
        <a
          key={option}
          href={hrefFor(address, option)}
          lang={LANGUAGE_NAMES[option].tag}
          hrefLang={marketTagOf(option)}
          aria-current={option === language ? 'true' : undefined}
          className="language-switch__option"
        >
          {LANGUAGE_NAMES[option].name}
        </a>
      ))}
    </div>
  );
}
