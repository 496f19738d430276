import { useMemo, type ReactNode } from 'react';
import { inMarket } from '../config/config-rules';
import { PorticoContext, type PorticoContextValue } from './portico-context';

export interface PorticoIslandProviderProps {
  /** The page's context value as the shell's PorticoProvider holds it (or, on the server, as the page is rendered). */
  value: PorticoContextValue;
  children: ReactNode;
}

/**
 * The page's context for a section rendered as a React root of its own (an
 * island): the same value the shell's PorticoProvider gives, passed in, so a
 * language switch in the shell reaches the section when the shell renders it
 * again. The section worker renders a section on the server inside this same
 * provider, so both sides build the same tree for hydration.
 */
export function PorticoIslandProvider({ value, children }: PorticoIslandProviderProps) {
  // The market's own company details, as the shell's provider gives them (an island started alone, or the server's worker, gets config.json as written).
  const inPage = useMemo(() => ({ ...value, config: inMarket(value.config, value.language) }), [value]);
  return <PorticoContext.Provider value={inPage}>{children}</PorticoContext.Provider>;
}
