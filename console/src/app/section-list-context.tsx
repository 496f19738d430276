import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { CONTROL_API } from '@portico/control-contract';
import { listedSections, sectionName, type ListedSection } from '../api/section-list';
import { seesSection } from '../api/roles';
import { useLoad } from '../api/use-load';
import { useConsoleLanguage } from '../i18n/use-console-text';
import { useSignedIn } from './session-context';

export interface SectionList {
  /** The sections the role sees, in nav order; undefined until the first answer. */
  sections: readonly ListedSection[] | undefined;
  /** Why the list could not be read, in words. */
  error: string | undefined;
  /** A section's name in the console's language (its label; the id of one not listed, a retired one in the audit). */
  nameOf(id: string): string;
  /** Reads the list again (after an add, a change or a retirement, before the API's event). */
  reload(): void;
}

const SectionListContext = createContext<SectionList | undefined>(undefined);

export interface SectionListProviderProps {
  children: ReactNode;
}

/**
 * The sections, read once for every screen from `GET /api/sections` and
 * again whenever the API says a section changed: the nav, the overview, the
 * audit's and the tokens' choices all list the same sections by the same
 * names, added ones included.
 */
export function SectionListProvider({ children }: SectionListProviderProps) {
  const { role } = useSignedIn();
  const { language } = useConsoleLanguage();
  const loaded = useLoad(
    // A messages token sees no section; the API would refuse it the list.
    (session) => (role.releases ? session.client.call(CONTROL_API.sections.status, { query: {} }) : Promise.resolve({})),
    [role],
    ['sections'],
  );
  const sections = useMemo(
    () => (loaded.data ? listedSections(loaded.data).filter((section) => seesSection(role, section.id)) : undefined),
    [loaded.data, role],
  );
  const nameOf = useCallback((id: string) => sectionName(sections, id, language), [sections, language]);
  const value = useMemo(() => ({ sections, error: loaded.error, nameOf, reload: loaded.reload }), [sections, loaded.error, nameOf, loaded.reload]);
  return <SectionListContext.Provider value={value}>{children}</SectionListContext.Provider>;
}

export function useSectionList(): SectionList {
  const list = useContext(SectionListContext);
  if (!list) throw new Error('useSectionList: outside a SectionListProvider');
  return list;
}
