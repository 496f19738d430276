import { useMemo, type ReactNode } from 'react';
import type { ConfigProblem, SiteConfig } from '../config/config-schema';
import { packFor, type Language } from '../i18n/language';
import { PorticoContext } from './portico-context';

export interface PorticoProviderProps {
  config: SiteConfig;
  problems?: readonly ConfigProblem[];
  language: Language;
  children: ReactNode;
}

const NO_PROBLEMS: readonly ConfigProblem[] = [];

export function PorticoProvider({ config, problems = NO_PROBLEMS, language, children }: PorticoProviderProps) {
  const value = useMemo(
    () => ({ config, problems, language, text: packFor(language) }),
    [config, problems, language],
  );
  return <PorticoContext.Provider value={value}>{children}</PorticoContext.Provider>;
}
