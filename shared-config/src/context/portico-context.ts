import { createContext } from 'react';
import type { ConfigProblem, SiteConfig } from '../config/config-schema';
import type { Language } from '@portico/contract/languages';
import type { TextPack } from '../i18n/text-pack';

export interface PorticoContextValue {
  config: SiteConfig;
  problems: readonly ConfigProblem[];
  language: Language;
  /** The host's texts; each section reads its own with `useSectionText`. */
  text: TextPack;
  /**
   * Loads `language`'s pack, then re-renders the page in it. Resolves `true`
   * once shown, `false` if a later switch overtook it; rejects if the pack
   * cannot be fetched (the page stays as it was).
   */
  switchLanguage: (language: Language) => Promise<boolean>;
}

/**
 * One context object for the whole page. It works across remotes only because
 * this package is a Module Federation singleton: a second copy would be a
 * second, empty context.
 */
export const PorticoContext = createContext<PorticoContextValue | null>(null);
