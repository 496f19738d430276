import { startTransition, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ConfigProblem, SiteConfig } from '../config/config-schema';
import { inMarket } from '../config/config-rules';
import type { Language } from '@portico/contract/languages';
import { loadPack } from '../i18n/load-pack';
import type { TextPack } from '../i18n/text-pack';
import { PorticoContext, type PorticoContextValue } from './portico-context';

export interface PorticoProviderProps {
  config: SiteConfig;
  problems?: readonly ConfigProblem[];
  /**
   * The first language and its pack, loaded beforehand with `loadPack`, so the
   * page never renders without its texts. Later changes go through
   * `switchLanguage`; the provider owns the language from then on.
   */
  language: Language;
  text: TextPack;
  children: ReactNode;
}

const NO_PROBLEMS: readonly ConfigProblem[] = [];

export function PorticoProvider({ config, problems = NO_PROBLEMS, language, text, children }: PorticoProviderProps) {
  const [current, setCurrent] = useState({ language, text });
  // Packs arrive in any order on a slow network; only the last request counts.
  const latestRequest = useRef(0);

  const switchLanguage = useCallback(async (next: Language) => {
    latestRequest.current += 1;
    const request = latestRequest.current;
    const pack = await loadPack(next);
    if (request !== latestRequest.current) return false;
    // A transition: each section then fetches its own texts in the new
    // language while the page keeps showing the old ones, instead of
    // replacing a section (and its form) with its loading line meanwhile.
    startTransition(() => setCurrent({ language: next, text: pack }));
    return true;
  }, []);

  const value = useMemo<PorticoContextValue>(
    // The market's own company details over the top-level ones, for the shell and every section alike.
    () => ({ config: inMarket(config, current.language), problems, language: current.language, text: current.text, switchLanguage }),
    [config, problems, current, switchLanguage],
  );
  return <PorticoContext.Provider value={value}>{children}</PorticoContext.Provider>;
}
