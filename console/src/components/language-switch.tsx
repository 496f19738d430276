import { LANGUAGES, localeOf } from '@portico/contract/languages';
import { useConsoleLanguage } from '../i18n/use-console-text';

/** English or Indonesian, each named in its own language; the choice is kept on this browser, across reloads. */
export function LanguageSwitch() {
  const { language, setLanguage, text } = useConsoleLanguage();
  return (
    <div role="group" aria-label={text.language.label} className="languages">
      {LANGUAGES.map((candidate) => (
        <button key={candidate} type="button" lang={localeOf(candidate)} aria-pressed={candidate === language} onClick={() => setLanguage(candidate)}>
          {text.language[candidate]}
        </button>
      ))}
    </div>
  );
}
